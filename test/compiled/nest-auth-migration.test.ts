// examples/nest-auth-migration is a NestJS 12 project on CommonJS with Jest and SWC (the layout
// `nest new` makes when CommonJS is chosen) that signs members in with @nestjs/passport
// (passport-local, then passport-jwt and @nestjs/jwt), serializes its entities with
// ClassSerializerInterceptor and caches a route with @nestjs/cache-manager. It moved onto the
// plugin by changing its import specifiers and main.ts. Its Jest specs run twice, in copies of the
// project: with the built package installed, and with the specifiers turned back into NestJS's,
// on NestJS itself. Both runs must pass the same tests.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installPlugin, loadNestExports, modules, project, readReport, nestProject, root, run, startMain, type Report } from '../helpers/nest-project.js'

const example = join(root, 'examples', 'nest-auth-migration')
const work = mkdtempSync(join(tmpdir(), 'fdp-nest-auth-migration-'))

// What NestJS's own main.ts was: what the plugin's main.ts replaces.
const nestMain = `import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import { AppModule } from './app.module'

async function bootstrap (): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter({ logger: true }))
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'])
  await app.listen(process.env.PORT ?? 3000, process.env.HOST ?? '127.0.0.1')
}
void bootstrap()
`

/** Type-checks the project with its tsconfig.json, then runs its specs with its Jest configuration. */
function check (dir: string): Report {
  run(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], dir)
  try {
    run(process.execPath, [join(modules, 'jest', 'bin', 'jest.js'), '--ci', '--json', '--outputFile', 'result.json'], dir)
  } catch (error) {
    // A failing spec fails the run: the report below says which and why.
    if (!existsSync(join(dir, 'result.json'))) throw error
  }
  return readReport(dir, 'result.json')
}

before(loadNestExports)

after(() => rmSync(work, { recursive: true, force: true }))

// The test names both runs must pass: every spec of the example.
let onPlugin: Report | undefined
let pluginProject = ''

test('the example type-checks and all its Jest specs pass on the plugin, installed as a package', () => {
  const dir = project(example, join(work, 'on-plugin'))
  installPlugin(dir)
  const report = check(dir)
  onPlugin = report
  pluginProject = dir
  assert.deepEqual(report.failed, [])
  assert.equal(report.passed.length, 12, report.passed.join('\n'))
  for (const file of ['src/members/members.service.spec.ts', 'src/auth/auth.service.spec.ts', 'src/books/books.controller.spec.ts', 'test/app.e2e-spec.ts']) {
    assert.ok(report.passed.some((name) => name.startsWith(`${file} > `)), `${file} ran`)
  }
})

test('its main.ts builds with the project\'s build configuration, signs a member in, and ends on SIGTERM', { timeout: 30_000 }, async () => {
  assert.ok(pluginProject, 'the project of the run on the plugin')
  const { url, stop } = await startMain(pluginProject)
  const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'ada', secret: 'engine-1843' }) })
  assert.equal(login.status, 200)
  const { access_token: token } = await login.json() as { access_token: string }
  const me = await fetch(`${url}/auth/me`, { headers: { authorization: `Bearer ${token}` } })
  assert.deepEqual(await me.json(), { id: 1, username: 'ada', email: 'ada@example.com', handle: '@ada' })
  assert.equal((await fetch(`${url}/auth/me`)).status, 401)
  assert.deepEqual(await stop(), { code: null, signal: 'SIGTERM' })
})

test('the example\'s sources are NestJS\'s but for their import specifiers and main.ts: turned back, they type-check and pass the same Jest specs on NestJS', () => {
  assert.ok(onPlugin, 'the run on the plugin comes first')
  const { dir, reverted } = nestProject(example, join(work, 'on-nestjs'), nestMain)
  assert.ok(reverted >= 16, `${reverted} files had their specifiers turned back`)
  const onNest = check(dir)
  assert.deepEqual(onNest.failed, [])
  assert.deepEqual(onNest.passed, onPlugin.passed)
})
