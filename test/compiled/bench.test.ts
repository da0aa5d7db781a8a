// Runs on tsc output: ValidationPipe reads the benchmark's DTO from the emitted parameter types.
// The bench apps load the package by name, as users do; the app here registers that same copy.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { Module, decoratorPlugin } from 'fastify-decorator-plugin'
import { buildApp as buildRaw } from '../../bench/src/apps/raw.js'
import { buildApp as buildPlugin } from '../../bench/src/apps/plugin.js'
import { CompiledItemsController } from '../../bench/src/apps/plugin-dto.js'
import { SearchController } from '../../bench/src/apps/plugin-query.js'
import { scenarios, sseBody } from '../../bench/src/scenarios.js'

for (const name of ['pipeline-cv', 'pipeline-dto', 'query-dto'] as const) {
  for (const [target, build] of [['raw', buildRaw], ['plugin', buildPlugin]] as const) {
    test(`bench ${target} ${name}: every check answers as the runner expects, the rejected body included`, async (t) => {
      const app = await build(name)
      t.after(() => app.close())
      for (const check of scenarios[name].checks) {
        const response = await app.inject({ method: check.method, url: check.path, headers: check.headers, payload: check.body === undefined ? undefined : JSON.stringify(check.body) })
        assert.equal(response.statusCode, check.status, `${check.why}: ${response.body}`)
        if (check.json !== undefined) assert.deepEqual(response.json(), check.json, check.why)
      }
    })
  }
}

for (const [target, build] of [['raw', buildRaw], ['plugin', buildPlugin]] as const) {
  test(`bench ${target} sse: the stream is the one the runner expects`, async (t) => {
    const app = await build('sse')
    t.after(() => app.close())
    const response = await app.inject(scenarios.sse.request.path)
    assert.equal(response.headers['content-type'], 'text/event-stream')
    assert.equal(response.body, sseBody)
  })
}

@Module({ controllers: [CompiledItemsController] })
class ItemsModule {}

test('bench plugin pipeline-dto: the DTO is the route\'s body schema, and the 400 is ValidationPipe\'s', async (t) => {
  const schemas: unknown[] = []
  const app = Fastify()
  t.after(() => app.close())
  app.addHook('onRoute', (route) => { schemas.push(route.schema) })
  await app.register(decoratorPlugin, { module: ItemsModule })
  const { request } = scenarios['pipeline-dto']
  assert.deepEqual(JSON.parse(JSON.stringify(schemas)), [{ body: { $ref: 'CreateItemDto#' } }])
  const rejected = await app.inject({ method: 'POST', url: request.path, headers: request.headers, payload: JSON.stringify({ name: '', qty: -1 }) })
  assert.deepEqual(rejected.json(), {
    statusCode: 400,
    message: ['name must be longer than or equal to 1 characters', 'qty must not be less than 0'],
    error: 'Bad Request'
  })
})

@Module({ controllers: [SearchController] })
class SearchModule {}

test('bench plugin query-dto: the query DTO is the route\'s querystring schema, and the 400 is ValidationPipe\'s', async (t) => {
  const schemas: unknown[] = []
  const app = Fastify()
  t.after(() => app.close())
  app.addHook('onRoute', (route) => { if (route.method === 'GET') schemas.push(route.schema) })
  await app.register(decoratorPlugin, { module: SearchModule })
  assert.deepEqual(JSON.parse(JSON.stringify(schemas)), [{
    querystring: {
      type: 'object',
      properties: {
        limit: { type: 'integer', maximum: 100, minimum: 1 },
        order: { enum: ['asc', 'desc', null] },
        q: { type: ['string', 'null'], maxLength: 50 }
      },
      required: ['limit']
    }
  }])
  assert.deepEqual((await app.inject('/search?limit=abc')).json(), {
    statusCode: 400,
    message: ['limit must not be greater than 100', 'limit must not be less than 1', 'limit must be an integer number'],
    error: 'Bad Request'
  })
})
