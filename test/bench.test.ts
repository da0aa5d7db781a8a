import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { WebSocket } from 'ws'
import type { FastifyInstance } from 'fastify'
import { buildApp as buildRaw } from '../bench/src/apps/raw.js'
import { buildApp as buildPlugin } from '../bench/src/apps/plugin.js'
import { buildWsApp as buildRawWs } from '../bench/src/apps/raw-ws.js'
import { buildWsApp as buildPluginWs } from '../bench/src/apps/plugin-ws.js'
import { scenarios, startupChecks, wsChecks, type AppName, type Check } from '../bench/src/scenarios.js'

// The benchmark's raw Fastify and plugin apps answer every scenario as the runner expects
// (the runner repeats these checks over HTTP, NestJS included, before timing anything).

const builders: Record<string, (name: AppName) => Promise<FastifyInstance>> = { raw: buildRaw, plugin: buildPlugin }

async function expect (app: FastifyInstance, check: Check): Promise<void> {
  const response = await app.inject({
    method: check.method,
    url: check.path,
    headers: check.headers,
    payload: check.body === undefined ? undefined : JSON.stringify(check.body)
  })
  assert.equal(response.statusCode, check.status, `${check.method} ${check.path}: ${check.why}: ${response.body}`)
  if (check.json !== undefined) assert.deepEqual(response.json(), check.json, check.why)
}

for (const [target, build] of Object.entries(builders)) {
  for (const scenario of Object.values(scenarios)) {
    test(`bench ${target} ${scenario.name}: answers as the runner expects`, async (t) => {
      const app = await build(scenario.name)
      t.after(() => app.close())
      // ValidationPipe reads the DTO from type metadata, which this test runner does not emit;
      // test/compiled/bench.test.ts checks the rejected body for the plugin too. Without the DTO,
      // the query-dto handler gets the query's strings: only the statuses are compared here.
      const unvalidated = target === 'plugin' && (scenario.name === 'pipeline-cv' || scenario.name === 'pipeline-dto' || scenario.name === 'query-dto')
      const checks = unvalidated
        ? scenario.checks.filter((check) => check.status !== 400).map((check) => scenario.name === 'query-dto' ? { ...check, json: undefined } : check)
        : scenario.checks
      for (const check of checks) await expect(app, check)
    })
  }

  test(`bench ${target} startup: 2000 routes answer`, async (t) => {
    const app = await build('startup')
    t.after(() => app.close())
    for (const check of startupChecks) await expect(app, check)
  })
}

test('bench raw startup with a plugin per resource: the same 2000 routes answer', async (t) => {
  const app = await buildRaw('startup-contexts')
  t.after(() => app.close())
  for (const check of startupChecks) await expect(app, check)
})

// The startup comparison means something only if every target registers the same routes:
// `/cN` without a trailing-slash twin, `/cN/:id`, and Fastify's HEAD routes for the GETs.
test('bench startup: raw Fastify, raw Fastify with a plugin per resource and the plugin register the same routes', async (t) => {
  const apps = [await buildRaw('startup'), await buildRaw('startup-contexts'), await buildPlugin('startup')]
  t.after(() => Promise.all(apps.map((app) => app.close())))
  const [raw, ...others] = apps.map((app) => app.printRoutes({ commonPrefix: false }))
  assert.match(raw, /^├── \/c0 \(GET, HEAD, POST\)\n│ {3}└── \/:id \(GET, HEAD, DELETE\)\n/)
  for (const routes of others) assert.equal(routes, raw)
})

// The bench measures the package as users load it (bench/install-package.js installs the packed
// tarball); here, under tsx, the name maps to the sources (tsconfig.json "paths").
test('bench apps import the plugin by the package name, never its sources by path', () => {
  const apps = new URL('../bench/src/apps/', import.meta.url)
  const files = readdirSync(apps).filter((file) => file.startsWith('plugin'))
  assert.ok(files.length >= 4, files.join(', '))
  for (const file of files) {
    const specifiers = [...readFileSync(new URL(file, apps), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1])
    assert.ok(specifiers.includes('fastify-decorator-plugin'), `${file} imports ${specifiers.join(', ')}`)
    assert.deepEqual(specifiers.filter((specifier) => /(^|\/)plugin\/|\.\.\/\.\.\//.test(specifier)), [], file)
  }
})

// ws-echo: the runner sends these frames to both targets over loopback before timing anything.
const wsBuilders: Record<string, () => Promise<FastifyInstance>> = { raw: buildRawWs, plugin: buildPluginWs }
for (const [target, build] of Object.entries(wsBuilders)) {
  test(`bench ${target} ws-echo: answers every frame as the runner expects, on the app's own server`, async (t) => {
    const app = await build()
    t.after(() => app.close())
    await app.listen({ port: 0, host: '127.0.0.1' })
    const socket = new WebSocket(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/`)
    t.after(() => socket.terminate())
    await once(socket, 'open')
    for (const check of wsChecks) {
      socket.send(check.frame)
      const [answer] = await once(socket, 'message')
      assert.equal(String(answer), check.answer, check.why)
    }
  })
}
