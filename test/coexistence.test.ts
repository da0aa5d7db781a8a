import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify'
import {
  decoratorPlugin, Module, Controller, Get, Post, Body, Req, Res, Inject, Injectable, FASTIFY,
  HttpException, type Request, type Response
} from '../plugin/index.js'

interface CatsDb { find (id: string): { id: string, name: string } | undefined }

declare module 'fastify' {
  interface FastifyInstance { catsDb: CatsDb, config: { greeting: string } }
  interface FastifyRequest { startedBy?: string }
}

@Controller('decorated')
class Decorated {
  @Get() get (@Req() req: Request) { return { startedBy: req.startedBy ?? null } }
  @Post() post (@Body() body: unknown) { return body }
}

@Module({ controllers: [Decorated] })
class AppModule {}

/** The plain part of an app, the same with or without the plugin. */
function plainApp (): FastifyInstance {
  const app = Fastify({ bodyLimit: 100 })
  app.get('/ok', async () => ({ ok: true }))
  app.post('/echo', async (req) => req.body)
  app.get('/boom', async () => { throw new Error('boom') })
  app.get('/http-exception', async () => { throw new HttpException('from a plain route', 400) })
  app.get('/text', (req, reply) => { reply.header('x-plain', '1').send('text') })
  return app
}

const probes: InjectOptions[] = [
  { url: '/ok' },
  { method: 'HEAD', url: '/ok' },
  { method: 'POST', url: '/echo', payload: { a: 1 } },
  { method: 'POST', url: '/echo', payload: '{"bad', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/echo', payload: JSON.stringify({ big: 'x'.repeat(200) }), headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/echo', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { url: '/boom' },
  { url: '/http-exception' },
  { url: '/text' },
  { url: '/nope' },
  { method: 'DELETE', url: '/ok' }
]

/** The same plain app twice, the plugin registered in the second. */
async function twins (t: { after (fn: () => unknown): void }) {
  const without = plainApp()
  const withPlugin = plainApp()
  t.after(() => Promise.all([without.close(), withPlugin.close()]))
  await withPlugin.register(decoratorPlugin, { module: AppModule })
  await Promise.all([without.ready(), withPlugin.ready()])
  return { without, withPlugin }
}

function symbolValue (app: FastifyInstance, description: string): any {
  const key = Object.getOwnPropertySymbols(app).find((symbol) => symbol.description === description)!
  return (app as any)[key]
}

/** What the plugin could change on the parent: own properties, hooks, error handler, parsers, decorators. */
function shape (app: FastifyInstance) {
  const hooks = symbolValue(app, 'fastify.hooks')
  const parsers = symbolValue(app, 'fastify.contentTypeParser')
  return {
    properties: Object.getOwnPropertyNames(app).sort(),
    hooks: Object.fromEntries(Object.keys(hooks).map((name) => [name, hooks[name].map((hook: Function) => hook.name)])),
    errorHandler: app.errorHandler,
    parsers: [...parsers.customParsers.keys()],
    request: Object.getOwnPropertyNames(symbolValue(app, 'fastify.Request').prototype).sort(),
    reply: Object.getOwnPropertyNames(symbolValue(app, 'fastify.Reply').prototype).sort()
  }
}

test('the plugin is a guest: plain routes answer exactly as in the same app without it', async (t) => {
  const { without, withPlugin } = await twins(t)

  for (const probe of probes) {
    const [a, b] = await Promise.all([without.inject(probe), withPlugin.inject(probe)])
    const label = `${probe.method ?? 'GET'} ${probe.url}`
    assert.equal(b.statusCode, a.statusCode, label)
    assert.equal(b.body, a.body, label)
    const headers = (res: typeof a) => ({ ...res.headers, date: undefined })
    assert.deepEqual(headers(b), headers(a), label)
  }
  assert.deepEqual((await withPlugin.inject('/decorated')).json(), { startedBy: null })
})

test('the plugin adds only the container decoration to the parent', async (t) => {
  const { without, withPlugin } = await twins(t)

  const before = shape(without)
  const after = shape(withPlugin)
  assert.deepEqual(after.properties.filter((name) => !before.properties.includes(name)), ['container'])
  assert.deepEqual(before.properties.filter((name) => !after.properties.includes(name)), [])
  assert.deepEqual(after.hooks, before.hooks)
  assert.equal(after.errorHandler, before.errorHandler)
  assert.deepEqual(after.parsers, before.parsers)
  assert.deepEqual(after.request, before.request)
  assert.deepEqual(after.reply, before.reply)
})

test('parent hooks and decorations apply inside controllers', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  app.decorateRequest('startedBy', undefined)
  app.addHook('onRequest', async (req) => { req.startedBy = 'parent hook' })
  app.addHook('onSend', async (req, reply, payload) => { reply.header('x-parent', 'seen'); return payload })
  await app.register(decoratorPlugin, { module: AppModule })

  const res = await app.inject('/decorated')
  assert.deepEqual(res.json(), { startedBy: 'parent hook' })
  assert.equal(res.headers['x-parent'], 'seen')
})

test('hooks of a parent plugin registered with fastify-plugin also reach controllers; a sibling\'s do not', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(async function sibling (instance) {
    instance.addHook('onRequest', async (req, reply) => { reply.header('x-sibling', 'leaked') })
  })
  await app.register(async function scope (instance) {
    instance.addHook('onRequest', async (req) => { req.startedBy = 'scope' })
    await instance.register(decoratorPlugin, { module: AppModule, prefix: '/in-scope' })
  })

  const res = await app.inject('/in-scope/decorated')
  assert.deepEqual(res.json(), { startedBy: 'scope' })
  assert.equal(res.headers['x-sibling'], undefined)
  // The container decoration lands where the plugin was registered.
  assert.equal(app.hasDecorator('container'), false)
})

test('FASTIFY gives providers the encapsulated instance, so they can use app decorations', async (t) => {
  @Injectable()
  class CatsRepository {
    constructor (@Inject(FASTIFY) private readonly fastify: FastifyInstance) {}
    find (id: string) { return this.fastify.catsDb.find(id) }
    greeting () { return this.fastify.config.greeting }
  }
  @Controller('cats')
  class Cats {
    constructor (@Inject(CatsRepository) private readonly cats: CatsRepository) {}
    @Get(':id') one (@Req() req: Request) {
      const { id } = req.params as { id: string }
      return { cat: this.cats.find(id) ?? null, greeting: this.cats.greeting() }
    }
  }
  @Module({ controllers: [Cats], providers: [CatsRepository] })
  class CatsModule {}

  const app = Fastify()
  t.after(() => app.close())
  const rows = new Map([['1', { id: '1', name: 'Tom' }]])
  app.decorate('catsDb', { find: (id: string) => rows.get(id) })
  app.decorate('config', { greeting: 'meow' })
  await app.register(decoratorPlugin, { module: CatsModule })

  assert.deepEqual((await app.inject('/cats/1')).json(), { cat: { id: '1', name: 'Tom' }, greeting: 'meow' })
  assert.deepEqual((await app.inject('/cats/2')).json(), { cat: null, greeting: 'meow' })
})

test('one route at a time: a route moves from plain Fastify to a controller, the rest stays', async (t) => {
  // Before: two plain routes. After: /users/:id moved into a controller, /users stays plain.
  const store = [{ id: '1', name: 'Ann' }, { id: '2', name: 'Bob' }]
  const before = Fastify()
  before.get('/users', async () => store)
  before.get('/users/:id', async (req, reply) => {
    const user = store.find((u) => u.id === (req.params as { id: string }).id)
    if (!user) return reply.code(404).send({ statusCode: 404, message: 'user not found', error: 'Not Found' })
    return user
  })

  @Controller('users')
  class Users {
    @Get(':id') one (@Req() req: Request, @Res({ passthrough: true }) res: Response) {
      const user = store.find((u) => u.id === (req.params as { id: string }).id)
      if (!user) { res.code(404); return { statusCode: 404, message: 'user not found', error: 'Not Found' } }
      return user
    }
  }
  @Module({ controllers: [Users] })
  class UsersModule {}
  const after = Fastify()
  after.get('/users', async () => store)
  await after.register(decoratorPlugin, { module: UsersModule })
  t.after(() => Promise.all([before.close(), after.close()]))

  for (const url of ['/users', '/users/1', '/users/2', '/users/9']) {
    const [a, b] = await Promise.all([before.inject(url), after.inject(url)])
    assert.equal(b.statusCode, a.statusCode, url)
    assert.equal(b.body, a.body, url)
    assert.equal(b.headers['content-type'], a.headers['content-type'], url)
  }
})
