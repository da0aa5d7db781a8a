// examples/nest-migration is a NestJS 12 project (ES modules, Vitest with SWC, as `nest new`
// makes one) moved onto the plugin by changing its import specifiers and main.ts. Its own specs
// run here twice, in copies of the project: as it is, with the built package installed, and with
// the specifiers turned back into NestJS's, on NestJS itself. Both runs must pass the same tests.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const example = join(root, 'examples', 'nest-migration')
const modules = join(root, 'node_modules')
const work = mkdtempSync(join(tmpdir(), 'fdp-nest-migration-'))

const plugin = 'fastify-decorator-plugin'
// Where each NestJS package's names are looked for when a specifier is turned back, in this order.
const nestPackages = ['@nestjs/common', '@nestjs/core', '@nestjs/platform-fastify']
// What NestJS's own main.ts was: what the plugin's main.ts replaces.
const nestMain = `import { ValidationPipe } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import { AppModule } from './app.module.js'

const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter({ logger: true }))
app.useGlobalPipes(new ValidationPipe({ whitelist: true }))
app.enableShutdownHooks(['SIGTERM', 'SIGINT'])
await app.listen(process.env.PORT ?? 3000, process.env.HOST ?? '127.0.0.1')
`

function run (command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true', NO_COLOR: '1' } })
  } catch (error: any) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout}\n${error.stderr}`)
  }
}

/** The example's files (no node_modules or dist), by path relative to the project. */
function sources (dir = example): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(example, join(entry.parentPath, entry.name)))
    .filter((path) => !/^(node_modules|dist)\//.test(path))
    .sort()
}

/** A copy of the example with its dependencies installed: each linked from this repository. */
function project (name: string, edit: (path: string, text: string) => string | undefined = (path, text) => text): string {
  const dir = join(work, name)
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  for (const entry of readdirSync(modules)) {
    if (!entry.startsWith('.')) symlinkSync(join(modules, entry), join(dir, 'node_modules', entry))
  }
  for (const path of sources()) {
    const text = edit(path, readFileSync(join(example, path), 'utf8'))
    if (text === undefined) continue
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

interface Report { passed: string[], failed: string[] }

/** Type-checks the project with its tsconfig.json, then runs its specs with its Vitest configuration. */
function check (dir: string): Report {
  run(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], dir)
  try {
    run(process.execPath, [join(modules, 'vitest', 'vitest.mjs'), 'run', '--reporter', 'json', '--outputFile', 'result.json'], dir)
  } catch (error) {
    // A failing spec fails the run: the report below says which and why.
    if (!readdirSync(dir).includes('result.json')) throw error
  }
  const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'))
  const report: Report = { passed: [], failed: [] }
  for (const file of result.testResults) {
    for (const spec of file.assertionResults) {
      const name = `${relative(dir, file.name)} > ${spec.fullName}`
      if (spec.status === 'passed') report.passed.push(name)
      else report.failed.push(`${name}: ${spec.failureMessages.join('\n')}`)
    }
    if (file.status !== 'passed' && file.assertionResults.length === 0) report.failed.push(`${relative(dir, file.name)}: ${file.message}`)
  }
  report.passed.sort()
  return report
}

// Names each NestJS package exports: its values, and (for type-only imports) the types its declarations export.
const exported = new Map<string, { values: Set<string>, types: Set<string> }>()

async function namesOf (pkg: string): Promise<{ values: Set<string>, types: Set<string> }> {
  const dir = join(modules, ...pkg.split('/'))
  const values = new Set(Object.keys(await import(pkg)))
  const types = new Set(values)
  for (const path of readdirSync(dir, { recursive: true }) as string[]) {
    if (!path.endsWith('.d.ts') || path.includes('node_modules')) continue
    for (const match of readFileSync(join(dir, path), 'utf8').matchAll(/export (?:declare )?(?:interface|type|class|abstract class|enum) (\w+)/g)) {
      types.add(match[1])
    }
  }
  return { values, types }
}

/**
 * The source with each import of the plugin given back NestJS's specifier: the testing entry is
 * @nestjs/testing, and each statement of the main entry is the first NestJS package that exports
 * all of its names. Fails on a name no NestJS package exports, or on a statement that mixes
 * packages: neither can have come from a NestJS app by changing a specifier.
 */
function revert (path: string, text: string): string {
  return text.replace(/import (type )?\{([^}]*)\} from '(fastify-decorator-plugin(?:\/testing)?)'/g, (statement, typeOnly: string | undefined, list: string, specifier: string) => {
    const names = list.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => ({
      name: entry.replace(/^type /, '').split(' as ')[0],
      type: typeOnly !== undefined || entry.startsWith('type ')
    }))
    const has = (pkg: string, { name, type }: { name: string, type: boolean }) => exported.get(pkg)![type ? 'types' : 'values'].has(name)
    const candidates = specifier === plugin ? nestPackages : ['@nestjs/testing']
    const target = candidates.find((pkg) => names.every((name) => has(pkg, name)))
    if (target === undefined) {
      const foreign = names.filter((name) => !candidates.some((pkg) => has(pkg, name))).map(({ name }) => name)
      assert.fail(`${path}: "${statement.replace(/\s+/g, ' ')}" cannot be NestJS's: ${foreign.length > 0 ? `no NestJS package exports ${foreign.join(', ')}` : 'its names come from different NestJS packages'}`)
    }
    return statement.replace(`'${specifier}'`, `'${target}'`)
  })
}

before(async () => {
  for (const pkg of [...nestPackages, '@nestjs/testing']) exported.set(pkg, await namesOf(pkg))
})

after(() => rmSync(work, { recursive: true, force: true }))

// The test names both runs must pass: every spec of the example.
let onPlugin: Report | undefined
let pluginProject = ''

test('the example type-checks and all its specs pass on the plugin, installed as a package', () => {
  const dir = project('on-plugin')
  // The built package as npm installs it: its manifest and its builds.
  const installed = join(dir, 'node_modules', plugin)
  mkdirSync(installed)
  cpSync(join(root, 'package.json'), join(installed, 'package.json'))
  for (const build of ['plugin', 'cjs', 'types', 'wrapper']) cpSync(join(root, 'dist', build), join(installed, 'dist', build), { recursive: true })
  onPlugin = check(dir)
  pluginProject = dir
  assert.deepEqual(onPlugin.failed, [])
  // Unit specs of the service and the controller, and the e2e spec.
  assert.equal(onPlugin.passed.length, 14, onPlugin.passed.join('\n'))
  for (const file of ['src/cats/cats.service.spec.ts', 'src/cats/cats.controller.spec.ts', 'test/app.e2e-spec.ts']) {
    assert.ok(onPlugin.passed.some((name) => name.startsWith(`${file} > `)), `${file} ran`)
  }
})

test('its main.ts builds with the project\'s build configuration, serves the app, and ends on SIGTERM', { timeout: 30_000 }, async () => {
  assert.ok(pluginProject, 'the project of the run on the plugin')
  run(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], pluginProject)
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: pluginProject, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const exited = once(child, 'exit')
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (listening) resolve(listening[1])
    })
    exited.then(() => reject(new Error(`main.js exited before listening: ${output}`)), reject)
  })
  const created = await fetch(`${url}/cats`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-roles': 'admin' }, body: JSON.stringify({ name: 'Tom', age: 3, breed: 'Tabby', owner: 'me' }) })
  assert.equal(created.status, 201)
  // main.ts's global ValidationPipe strips what the DTO does not declare.
  assert.deepEqual(await created.json(), { data: { id: 1, name: 'Tom', age: 3, breed: 'Tabby' } })
  assert.deepEqual(await (await fetch(`${url}/cats/x`)).json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', path: '/cats/x' })
  child.kill('SIGTERM')
  const [code, signal] = await exited
  clearTimeout(timer)
  assert.deepEqual({ code, signal }, { code: null, signal: 'SIGTERM' })
  assert.match(output, /"context":"CatsService","msg":"Added Tom as #1"/)
})

test('the example\'s sources are NestJS\'s but for their import specifiers and main.ts: turned back, they type-check and pass the same specs on NestJS', () => {
  assert.ok(onPlugin, 'the run on the plugin comes first')
  let reverted = 0
  const dir = project('on-nestjs', (path, text) => {
    if (path === 'src/main.ts') return nestMain
    if (!path.endsWith('.ts')) return text
    const back = revert(path, text)
    assert.doesNotMatch(back, /fastify-decorator-plugin/, `${path} names the plugin only in import specifiers`)
    if (back !== text) reverted++
    return back
  })
  assert.ok(reverted >= 12, `${reverted} files had their specifiers turned back`)
  const onNest = check(dir)
  assert.deepEqual(onNest.failed, [])
  assert.deepEqual(onNest.passed, onPlugin.passed)
})

test('turning specifiers back fails on a name only the plugin exports', () => {
  assert.throws(() => revert('main.ts', "import { ValidationPipe, decoratorPlugin } from 'fastify-decorator-plugin'"), /no NestJS package exports decoratorPlugin/)
  assert.throws(() => revert('app.ts', "import { Module, APP_FILTER } from 'fastify-decorator-plugin'"), /different NestJS packages/)
  assert.throws(() => revert('spec.ts', "import { createTestApp } from 'fastify-decorator-plugin/testing'"), /createTestApp/)
  assert.equal(revert('x.ts', "import { Reflector } from 'fastify-decorator-plugin'"), "import { Reflector } from '@nestjs/core'")
  assert.equal(revert('x.ts', "import { FastifyAdapter, type NestFastifyApplication } from 'fastify-decorator-plugin'"), "import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'")
})
