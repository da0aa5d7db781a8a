// The package as npm ships it: packed from a clean copy of the sources, installed into small
// projects that load it the way users' test runners do (Jest and Vitest, default configurations).
// Offline: the projects' node_modules link to this repository's, the package is the tarball.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const modules = join(root, 'node_modules')
const work = mkdtempSync(join(tmpdir(), 'fdp-package-'))
let tarball = ''

function run (command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true' } })
  } catch (error: any) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout}\n${error.stderr}`)
  }
}

/** A project with the packed package installed and every other dependency linked from this repository. */
function project (name: string, files: Record<string, string>): string {
  const dir = join(work, name)
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  for (const entry of readdirSync(modules)) symlinkSync(join(modules, entry), join(dir, 'node_modules', entry))
  const installed = join(dir, 'node_modules', 'fastify-decorator-plugin')
  mkdirSync(installed)
  run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

/** Runs a test runner's CLI in `dir`; its JSON report (Jest's format, which Vitest shares) must show the one spec passed. */
function assertPassed (dir: string, cli: string[]): void {
  run(process.execPath, [...cli, '--outputFile', join(dir, 'result.json')], dir)
  const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'))
  assert.equal(result.numFailedTests, 0, JSON.stringify(result.testResults.map((r: any) => r.message)))
  assert.equal(result.numPassedTests, 1)
}

before(() => {
  // What a fresh clone has: sources and configuration, no dist/.
  const source = join(work, 'source')
  for (const path of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json', 'plugin', 'types', 'examples', 'README.md', 'CHANGELOG.md', 'SECURITY.md', 'LICENSE']) {
    cpSync(join(root, path), join(source, path), { recursive: true })
  }
  symlinkSync(modules, join(source, 'node_modules'))
  // npm pack builds it (prepack).
  run('npm', ['pack', '--pack-destination', work], source)
  tarball = join(work, readdirSync(work).find((file) => file.endsWith('.tgz'))!)
})

after(() => rmSync(work, { recursive: true, force: true }))

test('npm pack on a clone without dist/ builds first, and ships the license and every source file the source maps name', () => {
  const files = new Set(run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean).map((path) => path.replace(/^package\//, '')))
  for (const entry of ['dist/plugin/index.js', 'dist/plugin/index.d.ts', 'dist/plugin/testing.js', 'dist/cjs/plugin/index.js', 'dist/cjs/plugin/index.d.ts', 'dist/cjs/plugin/testing.d.ts', 'dist/cjs/package.json']) {
    assert.ok(files.has(entry), `${entry} is packed`)
  }
  assert.deepEqual([...files].filter((path) => /^(test|examples|bench|docs|dist\/examples)\//.test(path)), [], 'no tests, examples or benchmarks')
  const installed = join(project('maps-app', { 'package.json': JSON.stringify({ name: 'maps-app', private: true }) }), 'node_modules', 'fastify-decorator-plugin')
  // The license package.json names, in full.
  assert.equal(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).license, 'MIT')
  assert.ok(files.has('LICENSE'), 'LICENSE is packed')
  assert.match(readFileSync(join(installed, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} fastify-decorator-plugin contributors\n/)
  const maps = [...files].filter((path) => path.endsWith('.map'))
  assert.ok(maps.length > 40, `${maps.length} source maps`)
  for (const map of maps) {
    for (const source of JSON.parse(readFileSync(join(installed, map), 'utf8')).sources) {
      const shipped = relative(installed, join(installed, map, '..', source))
      assert.ok(files.has(shipped), `${map} names ${source}, which the package does not ship`)
    }
  }
  // With source maps on, a stack names a file that is there.
  const stack = run(process.execPath, ['--enable-source-maps', '-e', 'try { require("fastify-decorator-plugin").Module(null) } catch (error) { process.stdout.write(error.stack) }'], join(installed, '..', '..'))
  const frame = /\((\/[^():]+\/plugin\/module\.ts):\d+:\d+\)/.exec(stack)
  assert.ok(frame, stack)
  assert.ok(existsSync(frame[1]), frame[1])
})

// A spec as a NestJS project writes it: TypeScript decorators, injection by type (SWC emits the metadata).
const spec = `
import { Controller, Get, Injectable, Module, NotFoundException, Param } from 'fastify-decorator-plugin'
import { createTestApp } from 'fastify-decorator-plugin/testing'

@Injectable()
class CatsService {
  find (id: string) {
    if (id !== '1') throw new NotFoundException('no such cat')
    return { id, name: 'Tom' }
  }
}

@Controller('cats')
class CatsController {
  constructor (private readonly cats: CatsService) {}
  @Get(':id') find (@Param('id') id: string) { return this.cats.find(id) }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class AppModule {}

test('a controller answers through inject()', async () => {
  const app = await createTestApp(AppModule)
  expect((await app.inject('/cats/1')).json()).toEqual({ id: '1', name: 'Tom' })
  const missing = await app.inject('/cats/2')
  expect(missing.statusCode).toBe(404)
  expect(missing.json()).toEqual({ statusCode: 404, message: 'no such cat', error: 'Not Found' })
  await app.close()
})
`

test('the ES entry points load reflect-metadata, fastify-plugin and @fastify/error without an ES import', () => {
  const peers = ['reflect-metadata', 'fastify-plugin', '@fastify/error']
  const dir = project('lexer-app', {
    'package.json': JSON.stringify({ name: 'lexer-app', private: true, type: 'module' }),
    // Records every module the ES loader resolves.
    'hooks.js': `
      import { appendFileSync } from 'node:fs'
      export async function resolve (specifier, context, next) {
        const resolved = await next(specifier, context)
        appendFileSync(${JSON.stringify(join(work, 'lexer-app', 'resolved.txt'))}, resolved.url + '\\n')
        return resolved
      }
    `,
    'register.js': 'import { register } from \'node:module\'\nregister(\'./hooks.js\', import.meta.url)\n',
    'main.js': `
      import { decoratorPlugin, errors } from 'fastify-decorator-plugin'
      import { createTestApp } from 'fastify-decorator-plugin/testing'
      process.stdout.write(JSON.stringify([typeof Reflect.getMetadata, decoratorPlugin[Symbol.for('plugin-meta')].name, new errors.ERR_INVALID_OPTIONS('x').code, typeof createTestApp]))
    `
  })
  const output = run(process.execPath, ['--import', './register.js', 'main.js'], dir)
  assert.deepEqual(JSON.parse(output), ['function', 'fastify-decorator-plugin', 'FDP_ERR_INVALID_OPTIONS', 'function'])
  const resolved = readFileSync(join(dir, 'resolved.txt'), 'utf8').split('\n').filter(Boolean)
  assert.ok(resolved.some((url) => url.endsWith('/fastify-decorator-plugin/dist/plugin/index.js')), resolved.join('\n'))
  assert.deepEqual(resolved.filter((url) => peers.some((peer) => url.includes(`/node_modules/${peer}/`))), [])
  // Nor does any module of the ES build hold such an import, dynamic ones included.
  const installed = join(dir, 'node_modules', 'fastify-decorator-plugin', 'dist', 'plugin')
  for (const file of readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))) {
    const code = readFileSync(join(installed, file), 'utf8')
    for (const peer of peers) assert.doesNotMatch(code, new RegExp(`(from\\s*|import\\s*\\(?\\s*)["']${peer}["']`), `${file} imports ${peer}`)
  }
})

test('Jest with @swc/jest loads the package (its CommonJS build) with no transformIgnorePatterns', () => {
  const dir = project('jest-app', {
    'package.json': JSON.stringify({ name: 'jest-app', private: true }),
    // Jest's defaults, plus the SWC transform a NestJS project configures; node_modules stay untransformed.
    'jest.config.js': 'module.exports = { transform: { \'^.+\\\\.ts$\': \'@swc/jest\' } }\n',
    '.swcrc': JSON.stringify({ jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' } }),
    'test/cats.spec.ts': spec
  })
  assertPassed(dir, [join(modules, 'jest', 'bin', 'jest.js'), '--ci', '--no-watchman', '--json'])
})

test('Vitest loads the package (its ES module build) with its default configuration', () => {
  const dir = project('vitest-app', {
    'package.json': JSON.stringify({ name: 'vitest-app', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', experimentalDecorators: true } }),
    // Vitest's transform emits no decorator metadata: tokens are named, as under tsx.
    'test/cats.test.ts': `import { test, expect } from 'vitest'\n${spec
      .replace('import { Controller, Get, Injectable,', 'import { Controller, Get, Inject, Injectable,')
      .replace('constructor (private readonly cats', 'constructor (@Inject(CatsService) private readonly cats')}`
  })
  assertPassed(dir, [join(modules, 'vitest', 'vitest.mjs'), 'run', '--reporter', 'json'])
})

// A consumer of both entry points; each @ts-expect-error fails the compile if the types were lost.
const consumer = `
import { Controller, Get, Module } from 'fastify-decorator-plugin'
import { createTestApp, type TestAppOptions } from 'fastify-decorator-plugin/testing'

@Controller('cats')
class CatsController { @Get() all () { return ['Tom'] } }

@Module({ controllers: [CatsController] })
class AppModule {}

const options: TestAppOptions = { prefix: '/api', prefixTrailingSlash: 'both' }

export async function status (): Promise<number> {
  const app = await createTestApp(AppModule, options)
  // @ts-expect-error: a module class, not a string
  await createTestApp('AppModule')
  // @ts-expect-error: prefix is a string
  await createTestApp(AppModule, { prefix: 1 })
  return (await app.inject('/api/cats')).statusCode
}
`

test('every entry point type-checks under node10, node16 (CommonJS and ES module) and bundler resolution', () => {
  const compilerOptions = { target: 'es2022', strict: true, experimentalDecorators: true, noEmit: true, types: ['node'], skipLibCheck: true }
  const config = (options: Record<string, unknown>, files: string[]) => JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, files })
  const dir = project('types-app', {
    'package.json': JSON.stringify({ name: 'types-app', private: true }),
    'node10/consumer.ts': consumer,
    'node16/consumer.cts': consumer,
    'node16/consumer.mts': consumer,
    'bundler/consumer.ts': consumer,
    // "module": "commonjs" alone means node10 resolution to TypeScript 5, which most projects run.
    'tsconfig.node10.json': config({ module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, ['node10/consumer.ts']),
    'tsconfig.node16.json': config({ module: 'node16', moduleResolution: 'node16' }, ['node16/consumer.cts', 'node16/consumer.mts']),
    'tsconfig.bundler.json': config({ module: 'preserve', moduleResolution: 'bundler' }, ['bundler/consumer.ts'])
  })
  // TypeScript 7 has no node10 resolution any more: TypeScript 5 checks it.
  const typescript5 = join(createRequire(join(root, 'test', 'typescript-5', 'package.json')).resolve('typescript/package.json'), '..', 'bin', 'tsc')
  run(process.execPath, [typescript5, '-p', 'tsconfig.node10.json'], dir)
  const typescript = join(modules, 'typescript', 'bin', 'tsc')
  for (const resolution of ['node16', 'bundler']) run(process.execPath, [typescript, '-p', `tsconfig.${resolution}.json`], dir)
})
