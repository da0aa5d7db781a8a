// The package as npm ships it: packed from a clean copy of the sources, installed into small
// projects that load it the way users' test runners do (Jest and Vitest, default configurations).
// Offline: the projects' node_modules link to this repository's, the package is the tarball.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { brokenLinks, markdownLinks } from '../helpers/markdown-links.js'
import { catsSpec as spec } from '../helpers/jest.js'

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
  for (const path of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json', 'tsconfig.cjs-import.json', 'scripts', 'plugin', 'types', 'examples', 'docs', 'bench/README.md', 'README.md', 'CHANGELOG.md', 'SECURITY.md', 'LICENSE']) {
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
  for (const entry of ['dist/wrapper/index.js', 'dist/wrapper/testing.js', 'dist/plugin/index.d.ts', 'dist/plugin/testing.d.ts', 'dist/plugin/nest/reader.d.ts', 'dist/types/index.d.ts', 'dist/cjs/plugin/index.js', 'dist/cjs/plugin/index.d.ts', 'dist/cjs/plugin/testing.d.ts', 'dist/cjs/package.json']) {
    assert.ok(files.has(entry), `${entry} is packed`)
  }
  // Of the ES build only the declarations ship: both entries run the CommonJS build.
  assert.deepEqual([...files].filter((path) => /^dist\/(plugin|types)\//.test(path) && !path.endsWith('.d.ts')), [])
  assert.deepEqual([...files].filter((path) => /^(test|examples|bench|dist\/examples)\//.test(path) && path !== 'bench/README.md'), [], 'no tests, examples or benchmarks, only their results page')
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
  const frame = /\((\/[^():]+\/plugin\/decorators\/module\.ts):\d+:\d+\)/.exec(stack)
  assert.ok(frame, stack)
  assert.ok(existsSync(frame[1]), frame[1])
})

test('the README and the manual ship, and every relative link in the Markdown the package ships resolves inside it', () => {
  const files = run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean).map((path) => path.replace(/^package\//, ''))
  const pages = files.filter((path) => path.endsWith('.md')).sort()
  const manual = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
  for (const page of ['README.md', 'SECURITY.md', 'CHANGELOG.md', 'bench/README.md', ...manual]) assert.ok(pages.includes(page), `${page} is packed`)
  const installed = join(project('links-app', { 'package.json': JSON.stringify({ name: 'links-app', private: true }) }), 'node_modules', 'fastify-decorator-plugin')
  assert.ok(markdownLinks(readFileSync(join(installed, 'README.md'), 'utf8')).filter(({ target }) => /^(docs|bench)\//.test(target)).length > 15)
  // Checked in the unpacked tarball: a link to a file the package does not ship is broken there.
  assert.deepEqual(brokenLinks(installed, pages), [])
})

test('the ES loader sees only the two wrappers: no CommonJS file of the package or its dependencies is imported, so none is lexed', () => {
  const dependencies = ['reflect-metadata', 'fastify-plugin', '@fastify/error', 'ajv']
  const dir = project('lexer-app', {
    'package.json': JSON.stringify({ name: 'lexer-app', private: true, type: 'module' }),
    // Records every module the ES loader loads, with its format: an ES import of CommonJS is
    // loaded as 'commonjs', and that is what makes Node lex its source for export names.
    'hooks.js': `
      import { appendFileSync } from 'node:fs'
      export async function load (url, context, next) {
        const loaded = await next(url, context)
        appendFileSync(${JSON.stringify(join(work, 'lexer-app', 'loaded.txt'))}, loaded.format + ' ' + url + '\\n')
        return loaded
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
  const loaded = readFileSync(join(dir, 'loaded.txt'), 'utf8').split('\n').filter(Boolean)
  const installed = join(dir, 'node_modules', 'fastify-decorator-plugin')
  assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/fastify-decorator-plugin/')).map((line) => line.replace(pathToFileURL(installed).href, '')).sort(), [
    'module /dist/wrapper/index.js',
    'module /dist/wrapper/testing.js'
  ])
  assert.deepEqual(loaded.filter((line) => dependencies.some((name) => line.includes(`/node_modules/${name}/`))), [])
  // The wrappers name their exports and require() the CommonJS build: no ES import of it (an
  // `export *` from it would be one) and none of a CommonJS dependency, dynamic ones included.
  const shipped = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter((name) => /\.m?js$/.test(name) && !name.startsWith('dist/cjs/'))
  assert.deepEqual(shipped.sort(), ['dist/wrapper/index.js', 'dist/wrapper/testing.js'])
  for (const file of shipped) {
    const code = readFileSync(join(installed, file), 'utf8')
    assert.deepEqual([...code.matchAll(/(?:^|\s)(?:import|export)\b[^'"\n]*['"]([^'"]+)['"]/g)].map((match) => match[1]), ['node:module'], file)
    assert.doesNotMatch(code, /export\s*\*|import\s*\(/, file)
    for (const name of dependencies) assert.doesNotMatch(code, new RegExp(`["']${name}["']`), `${file} names ${name}`)
  }
})

test('the ES entries export exactly the names of the CommonJS entries and of the ES build, and one copy serves import and require', async () => {
  const dir = project('names-app', {
    'package.json': JSON.stringify({ name: 'names-app', private: true, type: 'module' }),
    'main.js': `
      import { createRequire } from 'node:module'
      import { Controller, HttpException, NotFoundException } from 'fastify-decorator-plugin'
      const require = createRequire(import.meta.url)
      const names = {}
      const same = {}
      for (const entry of ['', '/testing']) {
        const imported = await import('fastify-decorator-plugin' + entry)
        const required = require('fastify-decorator-plugin' + entry)
        names[entry] = { imported: Object.keys(imported), required: Object.keys(required).sort() }
        same[entry] = Object.keys(imported).filter((name) => imported[name] !== required[name])
      }
      const cjs = require('fastify-decorator-plugin')
      process.stdout.write(JSON.stringify({
        names,
        same,
        controller: Controller === cjs.Controller,
        instance: new NotFoundException() instanceof cjs.HttpException && new cjs.NotFoundException() instanceof HttpException,
        modules: Object.keys(require.cache).filter((file) => file.includes('/fastify-decorator-plugin/dist/cjs/plugin/')).length
      }))
    `
  })
  const result = JSON.parse(run(process.execPath, ['main.js'], dir))
  for (const [entry, file] of [['', 'index'], ['/testing', 'testing']]) {
    // The ES build of the same sources, as the repository builds it.
    const esBuild = Object.keys(await import(pathToFileURL(join(root, 'dist', 'plugin', `${file}.js`)).href))
    assert.ok(esBuild.length > (entry === '' ? 80 : 3), esBuild.join(', '))
    assert.deepEqual(result.names[entry].imported, esBuild, `fastify-decorator-plugin${entry}: the ES entry against the ES build`)
    assert.deepEqual(result.names[entry].required, esBuild, `fastify-decorator-plugin${entry}: the CommonJS entry against the ES build`)
    assert.deepEqual(result.same[entry], [], `fastify-decorator-plugin${entry}: exports that differ between import and require`)
  }
  assert.equal(result.controller, true)
  assert.equal(result.instance, true)
  // One CommonJS build loaded once: as many modules as its files, not twice as many.
  const built = readdirSync(join(dir, 'node_modules', 'fastify-decorator-plugin', 'dist', 'cjs', 'plugin'), { recursive: true, encoding: 'utf8' }).filter((name) => /\.c?js$/.test(name))
  assert.ok(result.modules > 40 && result.modules <= built.length, `${result.modules} of ${built.length}`)
})

// The optional peers, reached from the CommonJS build whichever entry loads it: NestJS's decorators
// (@nestjs/common is ES only: require()d), an rxjs interceptor, ValidationPipe with class-validator
// and class-transformer, @Render through @fastify/view, and the testing entry.
const peersApp = `
module.exports = function declare ({ lib, nest, cv, rxjs }) {
  class Wrap { intercept (ctx, next) { return next.handle().pipe(rxjs.map((data) => ({ data }))) } }
  nest.Injectable()(Wrap)
  class NestCats { one (id) { return { id } } }
  nest.Get(':id')(NestCats.prototype, 'one', Object.getOwnPropertyDescriptor(NestCats.prototype, 'one'))
  nest.Param('id')(NestCats.prototype, 'one', 0)
  nest.UseInterceptors(Wrap)(NestCats)
  nest.Controller('nest')(NestCats)
  class CatDto {}
  cv.IsString()(CatDto.prototype, 'name')
  class Cats {
    create (dto) { return { name: dto.name, dto: dto instanceof CatDto } }
    page () { return { name: 'Tom' } }
  }
  Reflect.defineMetadata('design:paramtypes', [CatDto], Cats.prototype, 'create')
  lib.Post()(Cats.prototype, 'create', Object.getOwnPropertyDescriptor(Cats.prototype, 'create'))
  lib.Body(new lib.ValidationPipe({ transform: true }))(Cats.prototype, 'create', 0)
  lib.Get('page')(Cats.prototype, 'page', Object.getOwnPropertyDescriptor(Cats.prototype, 'page'))
  lib.Render('cat')(Cats.prototype, 'page', Object.getOwnPropertyDescriptor(Cats.prototype, 'page'))
  lib.Controller('cats')(Cats)
  class AppModule {}
  lib.Module({ controllers: [NestCats, Cats], providers: [Wrap] })(AppModule)
  return AppModule
}
module.exports.exercise = async function exercise ({ lib, testing, Fastify, ejs }, AppModule) {
  const view = { engine: { ejs }, root: require('node:path').join(__dirname, 'views') }
  const app = Fastify()
  await app.register(lib.decoratorPlugin, { module: AppModule, view })
  const answers = []
  for (const [method, url, payload] of [['GET', '/nest/7'], ['POST', '/cats', { name: 'Tom' }], ['POST', '/cats', { name: 1 }], ['GET', '/cats/page']]) {
    const response = await app.inject({ method, url, payload })
    answers.push([response.statusCode, response.body])
  }
  await app.close()
  const testApp = await testing.createTestApp(AppModule, { view })
  answers.push((await testApp.inject('/nest/8')).body)
  await testApp.close()
  return answers
}
`

test('the optional peers work through either entry: an ES consumer and a CommonJS consumer get the same answers, without warnings', () => {
  const dir = project('peers-app', {
    'package.json': JSON.stringify({ name: 'peers-app', private: true }),
    'app.js': peersApp,
    'views/cat.ejs': '<p><%= name %></p>',
    'esm.mjs': `
      import { createRequire } from 'node:module'
      import Fastify from 'fastify'
      import ejs from 'ejs'
      import * as lib from 'fastify-decorator-plugin'
      import * as testing from 'fastify-decorator-plugin/testing'
      import * as nest from '@nestjs/common'
      import * as cv from 'class-validator'
      import * as rxjs from 'rxjs'
      const declare = createRequire(import.meta.url)('./app.js')
      const peers = { lib, testing, nest, cv, rxjs, Fastify, ejs }
      process.stdout.write(JSON.stringify(await declare.exercise(peers, declare(peers))))
    `,
    'cjs.js': `
      const declare = require('./app.js')
      const peers = { lib: require('fastify-decorator-plugin'), testing: require('fastify-decorator-plugin/testing'), nest: require('@nestjs/common'), cv: require('class-validator'), rxjs: require('rxjs'), Fastify: require('fastify'), ejs: require('ejs') }
      declare.exercise(peers, declare(peers)).then((answers) => process.stdout.write(JSON.stringify(answers)))
    `
  })
  const expected = [
    [200, JSON.stringify({ data: { id: '7' } })],
    [201, JSON.stringify({ name: 'Tom', dto: true })],
    [400, JSON.stringify({ statusCode: 400, message: ['name must be a string'], error: 'Bad Request' })],
    [200, '<p>Tom</p>'],
    JSON.stringify({ data: { id: '8' } })
  ]
  for (const consumer of ['esm.mjs', 'cjs.js']) {
    const result = spawnSync(process.execPath, [consumer], { cwd: dir, encoding: 'utf8' })
    assert.equal(result.stderr, '', consumer)
    assert.deepEqual(JSON.parse(result.stdout), expected, consumer)
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

test('Vitest loads the package (its ES entry) with its default configuration', () => {
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

test('every entry point type-checks with TypeScript 5 (node10, node16 and bundler resolution) and TypeScript 7 (node16, bundler), which has no node10', () => {
  const compilerOptions = { target: 'es2022', strict: true, experimentalDecorators: true, noEmit: true, types: ['node'], skipLibCheck: true }
  const config = (options: Record<string, unknown>, files: string[]) => JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, files })
  const dir = project('types-app', {
    'package.json': JSON.stringify({ name: 'types-app', private: true }),
    'node10/consumer.ts': consumer,
    'node16/consumer.cts': consumer,
    'node16/consumer.mts': consumer,
    'bundler/consumer.ts': consumer,
    // "module": "commonjs" alone means node10 resolution to TypeScript 5.
    'tsconfig.node10.json': config({ module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, ['node10/consumer.ts']),
    'tsconfig.node16.json': config({ module: 'node16', moduleResolution: 'node16' }, ['node16/consumer.cts', 'node16/consumer.mts']),
    'tsconfig.bundler.json': config({ module: 'preserve', moduleResolution: 'bundler' }, ['bundler/consumer.ts'])
  })
  const typescript5 = join(createRequire(join(root, 'test', 'typescript-5', 'package.json')).resolve('typescript/package.json'), '..', 'bin', 'tsc')
  const typescript7 = join(modules, 'typescript', 'bin', 'tsc')
  // The versions docs/testing.md names.
  assert.match(run(process.execPath, [typescript5, '-v'], dir), /^Version 5\./)
  assert.match(run(process.execPath, [typescript7, '-v'], dir), /^Version 7\./)
  for (const resolution of ['node10', 'node16', 'bundler']) run(process.execPath, [typescript5, '-p', `tsconfig.${resolution}.json`], dir)
  for (const resolution of ['node16', 'bundler']) run(process.execPath, [typescript7, '-p', `tsconfig.${resolution}.json`], dir)
  // What docs/testing.md tells node10 projects moving to TypeScript 7.
  const node10 = spawnSync(process.execPath, [typescript7, '-p', 'tsconfig.node10.json'], { cwd: dir, encoding: 'utf8' })
  assert.notEqual(node10.status, 0)
  assert.match(node10.stdout, /error TS5108: Option 'moduleResolution=node10' has been removed/)
})
