// examples/nest-migration is a NestJS 12 project (ES modules, Vitest with SWC, as `nest new`
// makes one) moved onto the plugin by changing its import specifiers and main.ts. Its own specs
// run here twice, in copies of the project: as it is, with the built package installed, and with
// the specifiers turned back into NestJS's, on NestJS itself. Both runs must pass the same tests.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installPlugin, loadNestExports, modules, project, readReport, nestProject, revert, root, run, startMain, type Report } from '../helpers/nest-project.js'

const example = join(root, 'examples', 'nest-migration')
const work = mkdtempSync(join(tmpdir(), 'fdp-nest-migration-'))

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

/** Type-checks the project with its tsconfig.json, then runs its specs with its Vitest configuration. */
function check (dir: string): Report {
  run(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], dir)
  try {
    run(process.execPath, [join(modules, 'vitest', 'vitest.mjs'), 'run', '--reporter', 'json', '--outputFile', 'result.json'], dir)
  } catch (error) {
    // A failing spec fails the run: the report below says which and why.
    if (!readdirSync(dir).includes('result.json')) throw error
  }
  return readReport(dir, 'result.json')
}

before(loadNestExports)

after(() => rmSync(work, { recursive: true, force: true }))

// The test names both runs must pass: every spec of the example.
let onPlugin: Report | undefined
let pluginProject = ''

test('the example type-checks and all its specs pass on the plugin, installed as a package', () => {
  const dir = project(example, join(work, 'on-plugin'))
  installPlugin(dir)
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
  const { url, output, stop } = await startMain(pluginProject)
  const created = await fetch(`${url}/cats`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-roles': 'admin' }, body: JSON.stringify({ name: 'Tom', age: 3, breed: 'Tabby', owner: 'me' }) })
  assert.equal(created.status, 201)
  // main.ts's global ValidationPipe strips what the DTO does not declare.
  assert.deepEqual(await created.json(), { data: { id: 1, name: 'Tom', age: 3, breed: 'Tabby' } })
  assert.deepEqual(await (await fetch(`${url}/cats/x`)).json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', path: '/cats/x' })
  assert.deepEqual(await stop(), { code: null, signal: 'SIGTERM' })
  assert.match(output(), /"context":"CatsService","msg":"Added Tom as #1"/)
})

test('the example\'s sources are NestJS\'s but for their import specifiers and main.ts: turned back, they type-check and pass the same specs on NestJS', () => {
  assert.ok(onPlugin, 'the run on the plugin comes first')
  const { dir, reverted } = nestProject(example, join(work, 'on-nestjs'), nestMain)
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
