import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback } from 'fastify'
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import cors from '@fastify/cors'
import { decoratorPlugin, Module, Controller, Get, Post, Options, Req, Hook, Injectable, type Request } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

type Tagged = Request & { tags?: string[], moduleValue?: string }
const tag = (req: Request, value: string) => { ((req as Tagged).tags ??= []).push(value) }

@Controller('free')
class FreeController {
  @Get() get (@Req() req: Tagged) { return { tags: req.tags ?? [], moduleValue: req.moduleValue ?? null } }
}
@Module({ controllers: [FreeController] })
class FreeModule {}

const plain = (app: FastifyInstance) => app.get('/plain', async (req) => ({ tags: (req as Tagged).tags ?? [], moduleValue: (req as Tagged).moduleValue ?? null }))

test('@fastify/rate-limit in a module limits that module\'s routes only', async (t) => {
  @Controller('limited')
  class LimitedController { @Get() get () { return { ok: true } } }
  @Module({ controllers: [LimitedController], plugins: [[rateLimit, { max: 2, timeWindow: '1 minute' }]] })
  class LimitedModule {}
  @Module({ imports: [LimitedModule, FreeModule] })
  class AppModule {}

  const app = await build(t, AppModule, {}, plain)
  const limited = [await app.inject('/limited'), await app.inject('/limited'), await app.inject('/limited')]
  assert.deepEqual(limited.map((res) => res.statusCode), [200, 200, 429])
  assert.equal(limited[0].headers['x-ratelimit-limit'], '2')
  assert.equal(limited[1].headers['x-ratelimit-remaining'], '0')
  assert.deepEqual(limited[2].json(), { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' })
  for (const url of ['/free', '/free', '/free', '/plain', '/plain', '/plain']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 200, url)
    assert.equal(res.headers['x-ratelimit-limit'], undefined, url)
  }
  // The server keeps serving the limited module's neighbours.
  assert.equal((await app.inject('/limited')).statusCode, 429)
})

test('@fastify/cors in a module answers that module\'s routes only', async (t) => {
  @Controller('shared')
  class SharedController { @Get() get () { return { shared: true } } }
  @Module({ controllers: [SharedController], plugins: [[cors, { origin: 'https://app.example', methods: ['GET'] }]] })
  class SharedModule {}
  @Module({ imports: [SharedModule, FreeModule] })
  class AppModule {}

  const app = await build(t, AppModule, {}, plain)
  const origin = { origin: 'https://app.example' }
  const shared = await app.inject({ url: '/shared', headers: origin })
  assert.equal(shared.statusCode, 200)
  assert.equal(shared.headers['access-control-allow-origin'], 'https://app.example')
  const preflight = await app.inject({ method: 'OPTIONS', url: '/shared', headers: { ...origin, 'access-control-request-method': 'GET' } })
  assert.equal(preflight.statusCode, 204)
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET')
  for (const url of ['/free', '/plain']) {
    const res = await app.inject({ url, headers: origin })
    assert.equal(res.statusCode, 200, url)
    assert.equal(res.headers['access-control-allow-origin'], undefined, url)
  }
})

const preflight = (url: string, origin = 'https://app.example') => ({ method: 'OPTIONS' as const, url, headers: { origin, 'access-control-request-method': 'GET' } })

test('@fastify/cors preflights answer on the module\'s own paths only, for every controller prefix', async (t) => {
  @Controller('shared')
  class SharedController {
    @Get() list () { return [] }
    @Get(':id') one () { return {} }
    @Options('own') own () { return { own: true } }
  }
  @Controller('orders')
  class OrdersController { @Post() create () { return {} } }
  @Module({ controllers: [SharedController, OrdersController], plugins: [[cors, { origin: 'https://app.example', methods: ['GET', 'POST'] }]] })
  class SharedModule {}
  @Module({ imports: [SharedModule, FreeModule] })
  class AppModule {}

  const app = await build(t, AppModule, {}, plain)
  for (const url of ['/shared', '/shared/42', '/orders', '/shared/own']) {
    const res = await app.inject(preflight(url))
    assert.equal(res.statusCode, 204, url)
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example', url)
    assert.equal(res.headers['access-control-allow-methods'], 'GET, POST', url)
  }
  // Paths of other modules, plain routes and unknown paths: Fastify's 404, as without the plugin.
  for (const url of ['/free', '/plain', '/nowhere', '/orders/1']) {
    const res = await app.inject(preflight(url))
    assert.equal(res.statusCode, 404, url)
    assert.equal(res.headers['access-control-allow-origin'], undefined, url)
    assert.equal(res.headers['access-control-allow-methods'], undefined, url)
  }
  assert.equal((await app.inject('/free')).statusCode, 200)
})

test('@fastify/cors preflights answer on the URLs a root route has under prefixTrailingSlash', async (t) => {
  @Controller('shared')
  class SharedController { @Get() list () { return [] } }
  @Module({ controllers: [SharedController], plugins: [[cors, { origin: 'https://app.example' }]] })
  class SharedModule {}
  for (const [prefixTrailingSlash, answered] of [['both', ['/shared', '/shared/']], ['slash', ['/shared/']]] as const) {
    const app = await build(t, SharedModule, { prefixTrailingSlash })
    for (const url of ['/shared', '/shared/', '/elsewhere']) {
      const res = await app.inject(preflight(url))
      const expected = (answered as readonly string[]).includes(url)
      assert.equal(res.statusCode, expected ? 204 : 404, `${prefixTrailingSlash} ${url}`)
      assert.equal(res.headers['access-control-allow-origin'], expected ? 'https://app.example' : undefined, `${prefixTrailingSlash} ${url}`)
    }
  }
})

test('two modules can each register @fastify/cors, each answering its own paths', async (t) => {
  @Controller('left')
  class LeftController { @Get() get () { return {} } }
  @Module({ controllers: [LeftController], plugins: [[cors, { origin: 'https://left.example' }]] })
  class LeftModule {}
  @Controller('right')
  class RightController { @Get() get () { return {} } }
  @Module({ controllers: [RightController], plugins: [[cors, { origin: 'https://right.example' }]] })
  class RightModule {}
  @Module({ imports: [LeftModule, RightModule] })
  class AppModule {}

  const app = await build(t, AppModule, { prefix: '/api' })
  for (const side of ['left', 'right']) {
    const res = await app.inject(preflight(`/api/${side}`, `https://${side}.example`))
    assert.equal(res.statusCode, 204, side)
    assert.equal(res.headers['access-control-allow-origin'], `https://${side}.example`, side)
  }
  assert.equal((await app.inject(preflight('/api/nowhere'))).statusCode, 404)
})

test('a catch-all route from the plugins of a module without routes fails registration', async () => {
  @Module({ plugins: [cors] })
  class EmptyModule {}
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: EmptyModule }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_PLUGIN')
    assert.match(error.message, /EmptyModule's plugins add the catch-all route OPTIONS \*, which would answer for every path of the app, and EmptyModule has no route path free for it\. Give the module a controller, or register the plugin on the app\./)
    return true
  })
  await app.close()
})

test('a plain plugin\'s hooks and decorations reach the module\'s controllers, without touching the function', async (t) => {
  const plugin: FastifyPluginAsync<{ value: string }> = async (instance, options) => {
    instance.decorateRequest('moduleValue', options.value)
    instance.addHook('onRequest', async (req) => { tag(req, 'plugin') })
  }
  @Injectable()
  class ProviderHook { @Hook('onRequest') mark (req: Request) { tag(req, 'provider') } }
  @Controller('scoped')
  class ScopedController {
    @Get() get (@Req() req: Tagged) { return { tags: req.tags ?? [], moduleValue: req.moduleValue ?? null } }
  }
  @Module({ controllers: [ScopedController], providers: [ProviderHook], plugins: [[plugin, { value: 'from options' }]] })
  class ScopedModule {}
  @Module({ imports: [ScopedModule, FreeModule] })
  class AppModule {}

  const app = await build(t, AppModule, {}, plain)
  // Plugins come before the module's provider hooks.
  assert.deepEqual((await app.inject('/scoped')).json(), { tags: ['plugin', 'provider'], moduleValue: 'from options' })
  assert.deepEqual((await app.inject('/free')).json(), { tags: [], moduleValue: null })
  assert.deepEqual((await app.inject('/plain')).json(), { tags: [], moduleValue: null })
  assert.equal(Object.getOwnPropertySymbols(plugin).length, 0)
})

test('callback, sync and ESM-default plugins all load; fastify-plugin encapsulation is respected', async (t) => {
  const loaded: string[] = []
  const callback: FastifyPluginCallback = (instance, options, done) => { loaded.push('callback'); done() }
  const sync = (instance: FastifyInstance) => { loaded.push('sync'); instance.decorateRequest('moduleValue', 'sync') }
  const esm = { default: async (instance: FastifyInstance, options: { n: number }) => { loaded.push(`esm ${options.n}`) } }
  const encapsulated = fp(async (instance: FastifyInstance) => {
    loaded.push('encapsulated')
    instance.decorateRequest('encapsulatedValue', 'leaked')
  }, { encapsulate: true, name: 'encapsulated' })
  @Controller('kinds')
  class KindsController {
    @Get() get (@Req() req: Tagged & { encapsulatedValue?: string }) { return { moduleValue: req.moduleValue, encapsulated: req.encapsulatedValue ?? 'none' } }
  }
  @Module({ controllers: [KindsController], plugins: [callback, sync as any, [esm, { n: 1 }], encapsulated] })
  class KindsModule {}
  const app = await build(t, KindsModule)
  assert.deepEqual(loaded, ['callback', 'sync', 'esm 1', 'encapsulated'])
  assert.deepEqual((await app.inject('/kinds')).json(), { moduleValue: 'sync', encapsulated: 'none' })
})

test('a bad plugins entry fails registration naming the module and index, before anything is registered', async () => {
  let called = false
  const first = async () => { called = true }
  const cases: Array<[unknown, RegExp]> = [
    ['nope', /BadModule's plugins\[1\] is string "nope", not a Fastify plugin; an entry is a Fastify plugin, or \[plugin, options\]\./],
    [[], /BadModule's plugins\[1\] is an array of 0 items/],
    [[first, 5], /BadModule's plugins\[1\] has options number 5; plugin options are an object/],
    [{ default: 'x' }, /BadModule's plugins\[1\] is string "x", not a Fastify plugin/]
  ]
  for (const [entry, message] of cases) {
    @Module({ plugins: [first, entry as any] })
    class BadModule {}
    const app = Fastify()
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: BadModule }).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_PLUGIN')
      assert.match(error.message, message)
      return true
    })
    await app.close()
  }
  assert.equal(called, false)
})

test('a plugin that fails makes ready() reject with its error', async () => {
  const failing = async () => { throw new Error('plugin failed') }
  @Module({ plugins: [failing] })
  class FailingModule {}
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: FailingModule }).ready() }, /plugin failed/)
  await app.close()
})
