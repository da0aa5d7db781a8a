import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import { Module, Controller, Get, Post, Delete, Hook, Inject, Injectable, Req, FASTIFY, REQUEST, Scope, type ControllerOptions, type Request } from '../../plugin/index.js'
import { routeDefinitions } from '../../plugin/decorators/controller.js'
import { build } from '../helpers/app.js'

// A controller that adds a hook and a request decoration to the context FASTIFY gives it.
@Controller('a')
class AController {
  constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
  onModuleInit () {
    this.fastify.decorateRequest('onlyA', 'a')
    this.fastify.addHook('onRequest', async (request, reply) => { reply.header('x-a', 'yes') })
  }

  @Get() get (@Req() req: Request) { return { onlyA: (req as any).onlyA ?? null } }
}

@Controller('b')
class BController {
  constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
  @Get() get (@Req() req: Request) { return { onlyA: (req as any).onlyA ?? null } }
}

@Injectable()
class ModuleScoped { constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {} }

@Module({ controllers: [AController, BController], providers: [ModuleScoped] })
class AppModule {}

test('what a controller adds to its context stays inside it', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.get('/plain', async (req) => ({ onlyA: (req as any).onlyA ?? null })))

  const a = await app.inject('/a')
  assert.deepEqual(a.json(), { onlyA: 'a' })
  assert.equal(a.headers['x-a'], 'yes')

  const b = await app.inject('/b')
  assert.deepEqual(b.json(), { onlyA: null })
  assert.equal(b.headers['x-a'], undefined)

  const plain = await app.inject('/plain')
  assert.deepEqual(plain.json(), { onlyA: null })
  assert.equal(plain.headers['x-a'], undefined)
  assert.equal(app.hasRequestDecorator('onlyA'), false)
})

test('each controller gets its own encapsulated instance, a child of its module\'s', async (t) => {
  const app = await build(t, AppModule)
  const a = app.container.get(AController).fastify
  const b = app.container.get(BController).fastify
  const module = app.container.get(ModuleScoped).fastify
  assert.notEqual(a, b)
  assert.notEqual(a, app)
  assert.notEqual(module, app)
  assert.notEqual(module, a)
  assert.equal(a.prefix, '/a')
  assert.equal(b.prefix, '/b')
  assert.equal(a.hasRequestDecorator('onlyA'), true)
  assert.equal(b.hasRequestDecorator('onlyA'), false)
  assert.equal(module.hasRequestDecorator('onlyA'), false)
  // Fastify builds a child context from its parent's: the module's context is in the chain.
  assert.ok(Object.prototype.isPrototypeOf.call(module, a))
  assert.ok(Object.prototype.isPrototypeOf.call(module, b))
  assert.ok(Object.prototype.isPrototypeOf.call(app, module))
})

test('a module\'s context is shared by its controllers and separate from other modules', async (t) => {
  @Injectable()
  class Installer {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
    onModuleInit () { this.fastify.addHook('onRequest', async (request, reply) => { reply.header('x-module', 'one') }) }
  }
  @Controller('one')
  class One { @Get() get () { return 'one' } }
  @Controller('one-more')
  class OneMore { @Get() get () { return 'one-more' } }
  @Module({ controllers: [One, OneMore], providers: [Installer] })
  class OneModule {}
  @Controller('two')
  class Two { @Get() get () { return 'two' } }
  @Module({ imports: [OneModule], controllers: [Two] })
  class Root {}

  const app = await build(t, Root)
  assert.equal((await app.inject('/one')).headers['x-module'], 'one')
  assert.equal((await app.inject('/one-more')).headers['x-module'], 'one')
  const two = await app.inject('/two')
  assert.equal(two.body, 'two')
  assert.equal(two.headers['x-module'], undefined)
})

test('@Controller({ scope: Scope.REQUEST }): one controller per request, built through DI with its request-scoped dependencies', async (t) => {
  const built = { scoped: 0, context: 0, service: 0, singleton: 0 }
  @Injectable({ scope: Scope.REQUEST })
  class RequestContext {
    readonly id: string
    constructor (@Inject(REQUEST) request: Request) { built.context++; this.id = request.headers['x-id'] as string }
  }
  @Injectable()
  class Service { constructor () { built.service++ } }

  // Nothing it injects is request-scoped: only its own scope makes it one per request.
  @Controller({ path: 'scoped', scope: Scope.REQUEST })
  class Scoped {
    seen: string | undefined
    constructor (@Inject(Service) readonly service: Service) { built.scoped++ }
    // A hook of the controller runs on the instance that answers the request.
    @Hook('preHandler') async mark (request: Request) { this.seen = request.headers['x-id'] as string }
    @Get() async get (@Req() request: Request) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
      return { id: request.headers['x-id'], seen: this.seen }
    }
  }
  // A request-scoped controller gets its request-scoped dependencies built for the same request.
  @Controller({ path: 'with-context', scope: Scope.REQUEST })
  class WithContext {
    constructor (@Inject(REQUEST) readonly request: Request, @Inject(RequestContext) readonly context: RequestContext) { built.scoped++ }
    @Get() get () { return { id: this.request.headers['x-id'], context: this.context.id } }
  }
  @Controller('singleton')
  class Singleton {
    constructor () { built.singleton++ }
    @Get() get () { return 'same' }
  }
  @Module({ controllers: [Scoped, WithContext, Singleton], providers: [RequestContext, Service] })
  class ScopedModule {}

  const app = await build(t, ScopedModule)
  assert.deepEqual(built, { scoped: 0, context: 0, service: 1, singleton: 1 })
  const ids = Array.from({ length: 50 }, (_, i) => `r${i}`)
  const answers = await Promise.all(ids.map((id) => app.inject({ url: '/scoped', headers: { 'x-id': id } })))
  assert.deepEqual(answers.map((answer) => answer.json()), ids.map((id) => ({ id, seen: id })))
  assert.deepEqual(built, { scoped: 50, context: 0, service: 1, singleton: 1 })
  const contexts = await Promise.all(['a', 'b'].map((id) => app.inject({ url: '/with-context', headers: { 'x-id': id } })))
  assert.deepEqual(contexts.map((answer) => answer.json()), [{ id: 'a', context: 'a' }, { id: 'b', context: 'b' }])
  assert.equal((await app.inject('/singleton')).body, 'same')
  assert.deepEqual(built, { scoped: 52, context: 2, service: 1, singleton: 1 })
  assert.throws(() => app.container.get(Scoped), { code: 'FDP_ERR_SCOPED_PROVIDER' })
})

test('@Controller({ scope }) accepts NestJS\'s scopes: a transient controller is built once, as in NestJS', async (t) => {
  let built = 0
  @Controller({ path: 'transient', scope: Scope.TRANSIENT })
  class Transient {
    readonly id = ++built
    @Get() get () { return this.id }
  }
  @Controller({ path: 'default', scope: Scope.DEFAULT })
  class Default { @Get() get () { return 'default' } }
  @Module({ controllers: [Transient, Default] })
  class TransientModule {}
  const app = await build(t, TransientModule)
  assert.deepEqual([(await app.inject('/transient')).body, (await app.inject('/transient')).body, (await app.inject('/default')).body], ['1', '1', 'default'])
  assert.equal(built, 1)
})

test('@Controller() rejects unknown keys and scopes with FDP_ERR_INVALID_DECLARATION, naming the class and the fix', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ path: 'x', scop: Scope.REQUEST }, /^@Controller\(\) on Misdeclared does not know the key "scop"; use path, host, version, scope or prefixTrailingSlash\.$/],
    [{ path: 'x', durable: true }, /does not know the key "durable"/],
    [{ path: 'x', scope: 'request' }, /^@Controller\(\) on Misdeclared: scope must be Scope\.DEFAULT, Scope\.REQUEST or Scope\.TRANSIENT, given string "request"\.$/],
    [['x'], /^@Controller\(\) takes a path string or \{ path, host, version, scope, prefixTrailingSlash \}, given an array\.$/]
  ]
  for (const [options, message] of cases) {
    assert.throws(() => {
      class Misdeclared {}
      Controller(options as ControllerOptions)(Misdeclared)
    }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
      assert.match(error.message, message)
      return true
    })
  }
})

test('a subclass adds its routes to a copy of its base class\'s; each class keeps one list, grown in place', async (t) => {
  class Base {
    @Get() list () { return 'list' }
    @Get(':id') get () { return 'get' }
  }
  @Controller('cats')
  class Cats extends Base {
    @Post() create () { return 'create' }
    @Delete(':id') remove () { return 'remove' }
  }
  const routes = (cls: Function) => routeDefinitions(cls).map(({ method, path, key }) => `${method} ${path} ${String(key)}`)
  assert.deepEqual(routes(Base), ['GET  list', 'GET :id get'])
  assert.deepEqual(routes(Cats), ['GET  list', 'GET :id get', 'POST  create', 'DELETE :id remove'])
  // No copy per decorator (a class's routes would cost quadratic time and garbage to declare).
  const own = routeDefinitions(Cats)
  Get('late')(Cats.prototype, 'create', Object.getOwnPropertyDescriptor(Cats.prototype, 'create')!)
  assert.equal(routeDefinitions(Cats), own)
  assert.deepEqual(routes(Base), ['GET  list', 'GET :id get'])
  @Module({ controllers: [Cats] })
  class CatsModule {}
  const app = await build(t, CatsModule)
  const answers = await Promise.all([app.inject('/cats'), app.inject('/cats/1'), app.inject({ method: 'POST', url: '/cats' }), app.inject({ method: 'DELETE', url: '/cats/1' }), app.inject('/cats/late')])
  assert.deepEqual(answers.map((answer) => answer.body), ['list', 'get', 'create', 'remove', 'create'])
})
