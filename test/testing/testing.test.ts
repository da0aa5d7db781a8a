import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Injectable, Inject, type CanActivate, type OnModuleInit, type OnModuleDestroy } from '../../plugin/index.js'
import { createTestApp } from '../../plugin/testing.js'

const events: string[] = []

@Injectable()
class CatsService implements OnModuleInit, OnModuleDestroy {
  ready = false
  onModuleInit () { this.ready = true; events.push('init') }
  onModuleDestroy () { events.push('destroy') }
  all () { return ['Tom'] }
}

class DenyAll implements CanActivate { canActivate () { return false } }

@Controller('cats')
class CatsController {
  constructor (@Inject(CatsService) private readonly cats: CatsService) {}
  @Get() all () { return this.cats.all() }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class CatsModule {}

test('createTestApp returns a ready app: providers built, onModuleInit resolved, routes served', async (t) => {
  events.length = 0
  const app = await createTestApp(CatsModule, {}, t)
  assert.equal(app.container.get(CatsService).ready, true)
  assert.deepEqual(events, ['init'])
  const res = await app.inject('/cats')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), ['Tom'])
})

test('createTestApp closes the app when the test context ends: onModuleDestroy runs after the test', async (t) => {
  events.length = 0
  let app: Awaited<ReturnType<typeof createTestApp>> | undefined
  await t.test('inner test owning the app', async (inner) => {
    app = await createTestApp(CatsModule, {}, inner)
    assert.equal((await app.inject('/cats')).statusCode, 200)
    assert.deepEqual(events, ['init'])
  })
  assert.deepEqual(events, ['init', 'destroy'])
  assert.ok(app)
})

test('createTestApp works without a test context; the caller closes the app', async () => {
  events.length = 0
  const app = await createTestApp(CatsModule)
  assert.deepEqual((await app.inject('/cats')).json(), ['Tom'])
  assert.deepEqual(events, ['init'])
  await app.close()
  assert.deepEqual(events, ['init', 'destroy'])
})

test('createTestApp applies overrides and the other plugin options', async (t) => {
  const app = await createTestApp(CatsModule, {
    prefix: '/api',
    overrides: [{ provide: CatsService, useValue: { all: () => ['Felix'] } }]
  }, t)
  const res = await app.inject('/api/cats')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), ['Felix'])
  assert.equal((await app.inject('/cats')).statusCode, 404)

  const guarded = await createTestApp(CatsModule, { globalGuards: [DenyAll] }, t)
  const denied = await guarded.inject('/cats')
  assert.equal(denied.statusCode, 403)
  assert.deepEqual(denied.json(), { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
})

test('createTestApp passes Fastify server options and runs setup before the plugin', async (t) => {
  const app = await createTestApp(CatsModule, {
    fastify: { bodyLimit: 10 },
    setup: (app) => {
      app.decorate('answer', 42)
      app.post('/plain', async (request) => request.body)
    }
  }, t)
  assert.equal((app as unknown as { answer: number }).answer, 42)
  const tooLarge = await app.inject({ method: 'POST', url: '/plain', payload: { some: 'long payload' } })
  assert.equal(tooLarge.statusCode, 413)
  assert.deepEqual((await app.inject('/cats')).json(), ['Tom'])
})

test('createTestApp rejects with the registration error, and the test context still ends cleanly', async (t) => {
  await t.test('inner test with a bad override', async (inner) => {
    await assert.rejects(createTestApp(CatsModule, { overrides: [{ provide: 'MISSING', useValue: 1 }] }, inner), {
      code: 'FDP_ERR_UNKNOWN_OVERRIDE'
    })
  })
  await assert.rejects(createTestApp(class NotAModule {}), { code: 'FDP_ERR_INVALID_OPTIONS' })
})

test('createTestApp rejects bad arguments with a clear error', async () => {
  await assert.rejects(createTestApp(CatsModule, null as any), {
    code: 'FDP_ERR_INVALID_OPTIONS',
    message: 'createTestApp(module, options?, t?): options must be an object, given null.'
  })
  await assert.rejects(createTestApp(CatsModule, {}, {} as any), {
    code: 'FDP_ERR_INVALID_OPTIONS',
    message: 'createTestApp(module, options?, t?): t must be a node:test context (with after()), given an object with keys [].'
  })
  await assert.rejects(createTestApp(CatsModule, { setup: 'x' } as any), {
    code: 'FDP_ERR_INVALID_OPTIONS',
    message: 'createTestApp(module, options?, t?): options.setup must be a function, given string "x".'
  })
})

test('without a test context, an app that fails to start is closed before the error is reported', async () => {
  let closed = false
  await assert.rejects(createTestApp(CatsModule, {
    overrides: [{ provide: 'MISSING', useValue: 1 }],
    setup: (app) => { app.addHook('onClose', async () => { closed = true }) }
  }), { code: 'FDP_ERR_UNKNOWN_OVERRIDE' })
  assert.equal(closed, true)
})
