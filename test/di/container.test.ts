import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import {
  decoratorPlugin, Module, Global, Controller, Get, Injectable, Inject, Optional, Scope, REQUEST, FASTIFY, Reflector, SetMetadata, UseGuards
} from '../../plugin/index.js'
import { Container } from '../../plugin/di/container.js'
import { scanModules } from '../../plugin/di/scanner.js'
import { controllerUse, scanControllers } from '../../plugin/routing/controller-scan.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'
import { sameShape } from '../helpers/shape.js'

test('a module sees its own providers, imported exports, re-exported modules and globals', async (t) => {
  @Injectable() class Own { name = 'own' }
  @Injectable() class Shared { name = 'shared' }
  @Injectable() class Deep { name = 'deep' }
  @Injectable() class Everywhere { name = 'global' }

  @Module({ providers: [Deep], exports: [Deep] })
  class DeepModule {}
  @Module({ imports: [DeepModule], providers: [Shared], exports: [Shared, DeepModule] })
  class SharedModule {}
  @Global() @Module({ providers: [Everywhere], exports: [Everywhere] })
  class GlobalModule {}

  @Controller('seen')
  class Seen {
    constructor (@Inject(Own) readonly own: Own, @Inject(Shared) readonly shared: Shared,
      @Inject(Deep) readonly deep: Deep, @Inject(Everywhere) readonly everywhere: Everywhere) {}

    @Get() get () { return [this.own.name, this.shared.name, this.deep.name, this.everywhere.name] }
  }
  @Module({ imports: [SharedModule, GlobalModule], controllers: [Seen], providers: [Own] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject('/seen')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), ['own', 'shared', 'deep', 'global'])
})

test('a global module is visible without importing it, from any depth', async (t) => {
  @Injectable() class Config { value = 42 }
  @Global() @Module({ providers: [Config], exports: [Config] })
  class ConfigModule {}
  @Injectable() class Reader { constructor (@Inject(Config) readonly config: Config) {} }
  @Module({ providers: [Reader], exports: [Reader] })
  class FeatureModule {}
  @Module({ imports: [FeatureModule, ConfigModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Reader).config.value, 42)
})

test('exports of a module imported without re-export are not visible to the importer\'s importers', async () => {
  @Injectable() class Hidden {}
  @Module({ providers: [Hidden], exports: [Hidden] })
  class InnerModule {}
  @Module({ imports: [InnerModule] })
  class MiddleModule {}
  @Injectable() class Consumer { constructor (@Inject(Hidden) readonly hidden: Hidden) {} }
  @Module({ imports: [MiddleModule], providers: [Consumer] })
  class AppModule {}

  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.match(error.message, /Cannot resolve Hidden at index \[0\] of Consumer in module AppModule/)
  assert.match(error.message, /InnerModule exports it: add InnerModule to AppModule's imports/)
})

test('a provider that is not exported is not visible to importers', async () => {
  @Injectable() class Private {}
  @Module({ providers: [Private] })
  class LibModule {}
  @Injectable() class Consumer { constructor (@Inject(Private) readonly p: Private) {} }
  @Module({ imports: [LibModule], providers: [Consumer] })
  class AppModule {}

  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.match(error.message, /LibModule provides it but does not export it: add it to LibModule's exports and import LibModule into AppModule/)
})

test('a module imported by several modules is instantiated once, with its providers', async (t) => {
  const built = { module: 0, provider: 0 }
  @Injectable() class Db { constructor () { built.provider++ } }
  @Module({ providers: [Db], exports: [Db] })
  class DbModule { constructor () { built.module++ } }
  @Injectable() class A { constructor (@Inject(Db) readonly db: Db) {} }
  @Injectable() class B { constructor (@Inject(Db) readonly db: Db) {} }
  @Module({ imports: [DbModule], providers: [A], exports: [A] })
  class AModule {}
  @Module({ imports: [DbModule], providers: [B], exports: [B] })
  class BModule {}
  @Module({ imports: [AModule, BModule, DbModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual(built, { module: 1, provider: 1 })
  assert.equal(app.container.get(A).db, app.container.get(B).db)
})

test('every provider kind: class, useClass, useValue, async useFactory with inject, useExisting', async (t) => {
  @Injectable() class Base { kind () { return 'base' } }
  @Injectable() class Replacement extends Base { kind () { return 'replacement' } }
  const TOKEN = Symbol('config')
  @Module({
    providers: [
      Base,
      { provide: 'impl', useClass: Replacement },
      { provide: TOKEN, useValue: { url: 'db://x' } },
      {
        provide: 'conn',
        inject: [TOKEN, Base, { token: 'missing', optional: true }],
        useFactory: async (config: { url: string }, base: Base, missing: unknown) => {
          await new Promise((resolve) => setImmediate(resolve))
          return { url: config.url, base: base.kind(), missing }
        }
      },
      { provide: 'alias', useExisting: 'impl' }
    ]
  })
  class AppModule {}

  const app = await build(t, AppModule)
  const c = app.container
  assert.ok(c.get(Base) instanceof Base)
  assert.equal(c.get<Base>('impl').kind(), 'replacement')
  assert.deepEqual(c.get(TOKEN), { url: 'db://x' })
  assert.deepEqual(c.get('conn'), { url: 'db://x', base: 'base', missing: undefined })
  assert.equal(c.get('alias'), c.get('impl'))
})

test('a factory dependency that is not optional must exist', async () => {
  @Module({ providers: [{ provide: 'conn', inject: ['nope'], useFactory: (x: unknown) => x }] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.match(error.message, /Cannot resolve "nope" at index \[0\] of "conn" in module AppModule/)
})

test('class, string and symbol tokens are injected with @Inject', async (t) => {
  const SYM = Symbol('sym')
  @Injectable() class Dep { id = 'class' }
  @Injectable()
  class User {
    constructor (@Inject(Dep) readonly a: Dep, @Inject('str') readonly b: string, @Inject(SYM) readonly c: string) {}
  }
  @Module({ providers: [Dep, User, { provide: 'str', useValue: 'string' }, { provide: SYM, useValue: 'symbol' }] })
  class AppModule {}

  const app = await build(t, AppModule)
  const user = app.container.get(User)
  assert.deepEqual([user.a.id, user.b, user.c], ['class', 'string', 'symbol'])
})

test('@Optional() injects undefined for a missing token and the instance for a present one', async (t) => {
  @Injectable() class Present {}
  @Injectable()
  class User {
    constructor (@Optional() @Inject('absent') readonly absent: unknown, @Optional() @Inject(Present) readonly present: Present) {}
  }
  @Module({ providers: [Present, User] })
  class AppModule {}

  const app = await build(t, AppModule)
  const user = app.container.get(User)
  assert.equal(user.absent, undefined)
  assert.ok(user.present instanceof Present)
})

test('DEFAULT scope: one instance per application, shared by every consumer', async (t) => {
  let count = 0
  @Injectable({ scope: Scope.DEFAULT }) class Single { id = ++count }
  @Controller('a') class A {
    constructor (@Inject(Single) readonly s: Single) {}
    @Get() get () { return this.s.id }
  }
  @Controller('b') class B {
    constructor (@Inject(Single) readonly s: Single) {}
    @Get() get () { return this.s.id }
  }
  @Module({ controllers: [A, B], providers: [Single] })
  class AppModule {}

  const app = await build(t, AppModule)
  const bodies = [await app.inject('/a'), await app.inject('/b'), await app.inject('/a')].map((res) => res.body)
  assert.deepEqual(bodies, ['1', '1', '1'])
  assert.equal(count, 1)
})

test('REQUEST scope: one instance per request, bubbling to its consumers and the controller', async (t) => {
  const built = { ctx: 0, service: 0, controller: 0 }
  @Injectable({ scope: Scope.REQUEST })
  class RequestContext {
    readonly id: string
    constructor (@Inject(REQUEST) request: FastifyRequest) { built.ctx++; this.id = request.headers['x-id'] as string }
  }
  @Injectable() // DEFAULT, but depends on a request-scoped provider
  class Service {
    constructor (@Inject(RequestContext) readonly ctx: RequestContext) { built.service++ }
  }
  @Controller('who')
  class Who {
    constructor (@Inject(Service) readonly service: Service, @Inject(RequestContext) readonly ctx: RequestContext) { built.controller++ }
    @Get() get () { return { id: this.service.ctx.id, same: this.service.ctx === this.ctx } }
  }
  @Module({ controllers: [Who], providers: [RequestContext, Service] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual(built, { ctx: 0, service: 0, controller: 0 })
  const first = await app.inject({ url: '/who', headers: { 'x-id': 'one' } })
  const second = await app.inject({ url: '/who', headers: { 'x-id': 'two' } })
  assert.deepEqual([first.statusCode, first.json()], [200, { id: 'one', same: true }])
  assert.deepEqual([second.statusCode, second.json()], [200, { id: 'two', same: true }])
  assert.deepEqual(built, { ctx: 2, service: 2, controller: 2 })
  assert.throws(() => app.container.get(Service), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_SCOPED_PROVIDER')
    assert.match(error.message, /Service is request-scoped; use await container.resolve\(token, request\)/)
    return true
  })
})

test('a factory provider injecting REQUEST is request-scoped', async (t) => {
  @Controller('tenant')
  class Tenant {
    constructor (@Inject('tenant') readonly tenant: string) {}
    @Get() get () { return this.tenant }
  }
  @Module({
    controllers: [Tenant],
    providers: [{ provide: 'tenant', inject: [REQUEST], useFactory: (req: FastifyRequest) => req.headers['x-tenant'] }]
  })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ url: '/tenant', headers: { 'x-tenant': 'acme' } })).body, 'acme')
  assert.equal((await app.inject({ url: '/tenant', headers: { 'x-tenant': 'globex' } })).body, 'globex')
})

test('TRANSIENT scope: a new instance per injection point, two in one constructor included', async (t) => {
  let count = 0
  @Injectable({ scope: Scope.TRANSIENT }) class Logger { id = ++count }
  @Injectable() class One { constructor (@Inject(Logger) readonly a: Logger, @Inject(Logger) readonly b: Logger) {} }
  @Injectable() class Two { constructor (@Inject(Logger) readonly c: Logger) {} }
  @Module({ providers: [Logger, One, Two] })
  class AppModule {}

  const app = await build(t, AppModule)
  const one = app.container.get(One)
  const two = app.container.get(Two)
  assert.notEqual(one.a, one.b)
  assert.notEqual(one.a, two.c)
  assert.deepEqual(new Set([one.a.id, one.b.id, two.c.id]).size, 3)
  assert.equal(count, 3)
  assert.throws(() => app.container.get(Logger), { code: 'FDP_ERR_SCOPED_PROVIDER' })
})

test('built-in tokens: FASTIFY is the consumer\'s encapsulated instance, Reflector reads metadata', async (t) => {
  @Injectable()
  class Service {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance, @Inject(Reflector) readonly reflector: Reflector) {}
  }
  @Controller('ctx')
  class Ctx {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance, @Inject(Reflector) readonly reflector: Reflector) {}
    @Get() @SetMetadata('role', 'admin')
    get () { return 'ok' }
  }
  let moduleClass: AppModule | undefined
  @Module({ controllers: [Ctx], providers: [Service] })
  class AppModule {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) { moduleClass = this }
  }

  let routeContext: FastifyInstance | undefined
  const app = await build(t, AppModule, {}, (app) => {
    app.addHook('onRoute', function (route) { if (route.url === '/ctx' && route.method !== 'HEAD') routeContext = this })
  })
  const service = app.container.get(Service)
  const controller = app.container.get(Ctx)
  assert.ok(routeContext)
  assert.equal(controller.fastify, routeContext, 'a controller gets the context its routes live in')
  assert.notEqual(service.fastify, app, 'a provider gets its module\'s context, not the parent app')
  assert.notEqual(service.fastify, controller.fastify)
  assert.equal(moduleClass!.fastify, service.fastify, 'the module class and its providers share the module context')
  assert.ok(controller.reflector instanceof Reflector)
  assert.equal(controller.reflector, service.reflector, 'one Reflector per application')
  assert.equal(service.reflector.get('role', Ctx.prototype.get), 'admin')
})

test('container.get and container.resolve(token, request) from plain Fastify code', async (t) => {
  @Injectable() class Cats { all () { return ['tom'] } }
  @Injectable({ scope: Scope.REQUEST })
  class Caller {
    constructor (@Inject(REQUEST) readonly request: FastifyRequest) {}
    get id () { return this.request.headers['x-caller'] }
  }
  @Injectable({ scope: Scope.TRANSIENT }) class Fresh {}
  @Module({ providers: [Cats, Caller, Fresh] })
  class AppModule {}

  const app = await build(t, AppModule, {}, (app) => {
    app.get('/plain', async (request) => {
      const a = await app.container.resolve(Caller, request)
      const b = await app.container.resolve(Caller, request)
      return { cats: app.container.get(Cats).all(), id: a.id, same: a === b, request: a.request === request }
    })
  })
  const res = await app.inject({ url: '/plain', headers: { 'x-caller': 'c1' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { cats: ['tom'], id: 'c1', same: true, request: true })
  assert.equal(await app.container.resolve(Cats), app.container.get(Cats))
  assert.notEqual(await app.container.resolve(Fresh), await app.container.resolve(Fresh))
  assert.throws(() => app.container.get('nothing'), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_UNKNOWN_TOKEN')
    assert.match(error.message, /container\.get\("nothing"\): no module provides this token/)
    return true
  })
  await assert.rejects(app.container.resolve('nothing'), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
})

test('routes whose graph has no request-scoped provider do no container work per request', async (t) => {
  const calls: string[] = []
  // Both ways in: resolveIn, and scoped (what the request pipeline uses).
  const { resolveIn, scoped } = Container.prototype
  Container.prototype.resolveIn = function (binding, request) {
    calls.push(String(binding.token === undefined ? '' : (binding.token as Function).name))
    return resolveIn.call(this, binding, request)
  }
  Container.prototype.scoped = function (binding, request) {
    calls.push(String(binding.token === undefined ? '' : (binding.token as Function).name))
    return scoped.call(this, binding, request)
  }
  t.after(() => { Container.prototype.resolveIn = resolveIn; Container.prototype.scoped = scoped })

  @Injectable() class Store { value = 'static' }
  @Injectable({ scope: Scope.REQUEST }) class PerRequest { value = 'scoped' }
  @Controller('static')
  class Static {
    constructor (@Inject(Store) readonly store: Store) {}
    @Get() get () { return this.store.value }
  }
  @Controller('scoped')
  class Scoped {
    constructor (@Inject(PerRequest) readonly per: PerRequest) {}
    @Get() get () { return this.per.value }
  }
  @Module({ controllers: [Static, Scoped], providers: [Store, PerRequest] })
  class AppModule {}

  const app = await build(t, AppModule)
  calls.length = 0
  for (let i = 0; i < 3; i++) assert.equal((await app.inject('/static')).body, 'static')
  assert.deepEqual(calls, [], 'a static route never asks the container')
  assert.equal((await app.inject('/scoped')).body, 'scoped')
  assert.deepEqual(calls, ['Scoped'], 'the spy sees container work when there is some')
})

test('per-request builds of transients are not kept by the container', async (t) => {
  let container: Container | undefined
  const finalize = Container.prototype.finalize
  Container.prototype.finalize = function () { container = this; return finalize.call(this) }
  t.after(() => { Container.prototype.finalize = finalize })
  let built = 0
  let destroyed = 0
  @Injectable({ scope: Scope.TRANSIENT })
  class Helper { constructor () { built++ } onModuleDestroy () { destroyed++ } }
  @Injectable({ scope: Scope.REQUEST })
  class PerRequest { constructor (@Inject(Helper) readonly helper: Helper) {} }
  @Controller('r')
  class R {
    constructor (@Inject(PerRequest) readonly per: PerRequest) {}
    @Get() get () { return 'ok' }
  }
  @Module({ controllers: [R], providers: [Helper, PerRequest] })
  class AppModule {}

  const app = await build(t, AppModule)
  for (let i = 0; i < 3; i++) assert.equal((await app.inject('/r')).statusCode, 200)
  await app.container.resolve(Helper)
  assert.equal(built, 4)
  assert.deepEqual(container!.takeCreated(), [], 'nothing is recorded once the application is built')
  await app.close()
  assert.equal(destroyed, 0, 'per-request instances get no lifecycle hooks')
})

test('two Fastify instances with the same module classes are independent applications', async (t) => {
  let count = 0
  @Injectable() class Counter { id = ++count; hits = 0 }
  @Controller('hit')
  class Hit {
    constructor (@Inject(Counter) readonly counter: Counter, @Inject(FASTIFY) readonly fastify: FastifyInstance) {}
    @Get() get () { return { id: this.counter.id, hits: ++this.counter.hits } }
  }
  @Module({ controllers: [Hit], providers: [Counter] })
  class AppModule {}

  const one = await build(t, AppModule)
  const two = await build(t, AppModule, { prefix: '/two' })
  assert.deepEqual((await one.inject('/hit')).json(), { id: 1, hits: 1 })
  assert.deepEqual((await one.inject('/hit')).json(), { id: 1, hits: 2 })
  assert.deepEqual((await two.inject('/two/hit')).json(), { id: 2, hits: 1 })
  assert.equal((await one.inject('/two/hit')).statusCode, 404)
  assert.notEqual(one.container.get(Counter), two.container.get(Counter))
  assert.notEqual(one.container.get(Hit).fastify, two.container.get(Hit).fastify)
  await one.close()
  assert.deepEqual((await two.inject('/two/hit')).json(), { id: 2, hits: 2 }, 'closing one leaves the other serving')
})

test('the same application can be built, closed and built again in one process', async (t) => {
  const events: string[] = []
  @Injectable()
  class Service {
    onModuleInit () { events.push('init') }
    onModuleDestroy () { events.push('destroy') }
  }
  @Controller('s')
  class S {
    constructor (@Inject(Service) readonly service: Service) {}
    @Get() get () { return 'up' }
  }
  @Module({ controllers: [S], providers: [Service] })
  class AppModule {}

  const first = Fastify()
  await first.register(decoratorPlugin, { module: AppModule })
  await first.ready()
  assert.equal((await first.inject('/s')).body, 'up')
  const service = first.container.get(Service)
  await first.close()
  const second = await build(t, AppModule)
  assert.equal((await second.inject('/s')).body, 'up')
  assert.notEqual(second.container.get(Service), service)
  assert.deepEqual(events, ['init', 'destroy', 'init'])
})

test('container.get(Reflector) and container.resolve(Reflector) give the application\'s Reflector', async (t) => {
  @Injectable()
  class UsesReflector { constructor (@Inject(Reflector) readonly reflector: Reflector) {} }
  @Module({ providers: [UsesReflector] })
  class ReflectorModule {}
  const app = await build(t, ReflectorModule)
  const reflector = app.container.get(Reflector)
  assert.ok(reflector instanceof Reflector)
  assert.equal(reflector, app.container.get(UsesReflector).reflector)
  assert.equal(await app.container.resolve(Reflector), reflector)
})

test('the other build\'s Reflector class, used as a token, gives the application\'s Reflector; a subclass is a provider of its own', async (t) => {
  class TwinReflector {}
  Object.defineProperty(TwinReflector, Symbol.for('fastify-decorator-plugin.builtinToken'), { value: 'reflector' })
  class OwnReflector extends Reflector {}
  @Injectable()
  class Reader { constructor (@Inject(TwinReflector) readonly reflector: Reflector, @Inject(OwnReflector) readonly own: OwnReflector) {} }
  @Module({ providers: [Reader, OwnReflector] })
  class AppModule {}
  const app = await build(t, AppModule)
  const reader = app.container.get(Reader)
  assert.ok(reader.reflector instanceof Reflector)
  assert.equal(reader.reflector, app.container.get(Reflector))
  assert.equal(app.container.get(TwinReflector), app.container.get(Reflector))
  assert.equal(await app.container.resolve(TwinReflector), app.container.get(Reflector))
  assert.ok(reader.own instanceof OwnReflector)
  assert.notEqual(reader.own, reader.reflector)
})

test('nothing is bound once the container is final: every binding has its scope and cycle check', async () => {
  @Injectable() class Early {}
  @Module({ providers: [Early] })
  class AppModule {}
  const graph = await scanModules(AppModule)
  const container = new Container(graph)
  container.bindApplication([], [], [graph.root])
  container.finalize()
  // Lookups still work; a class nobody bound before finalize() is refused.
  assert.equal(container.enhancer(graph.root, Early).token, Early)
  assert.equal(container.moduleClass(graph.root).token, AppModule)
  @Injectable() class Late {}
  assert.throws(() => container.enhancer(graph.root, Late), /Late is bound in AppModule after the container was finalized/)
})

test('singletons are built module by module, imports first: an imported module\'s side-effect provider runs before the importer\'s', async (t) => {
  const built: string[] = []
  // As @nestjs/config's loader fills the store ConfigService reads: nothing injects the loader.
  @Injectable() class Store { readonly values = new Map<string, string>() }
  @Injectable() class Loader {
    constructor (@Inject(Store) store: Store) { store.values.set('secret', 'loaded'); built.push('Loader') }
  }
  @Module({ providers: [Store, Loader], exports: [Store] })
  class ConfigLikeModule {}

  @Injectable() class Strategy {
    readonly secret: string | undefined
    constructor (@Inject(Store) store: Store) { this.secret = store.values.get('secret'); built.push('Strategy') }
  }
  @Controller('secret')
  class SecretController {
    constructor (@Inject(Strategy) private readonly strategy: Strategy) {}
    @Get() get () { return { secret: this.strategy.secret } }
  }
  // The root's own provider is declared (and scanned) before the module it imports is.
  @Module({ imports: [ConfigLikeModule], controllers: [SecretController], providers: [Strategy] })
  class Root {}

  const app = await build(t, Root)
  assert.deepEqual(built, ['Loader', 'Strategy'])
  assert.deepEqual((await app.inject('/secret')).json(), { secret: 'loaded' })
})

test('every dependency has one hidden class: constructor argument or property, of a class, factory or alias, resolved or not', async () => {
  @Injectable() class Dep {}
  class Made {}
  class Alias {}
  @Injectable() class Consumer {
    @Inject(Dep) readonly byProperty!: Dep
    constructor (@Inject(Dep) readonly dep: Dep, @Inject(FASTIFY) readonly fastify: unknown, @Optional() @Inject('missing') readonly missing: unknown) {}
  }
  @Module({ providers: [Dep, Consumer, { provide: Made, useFactory: () => new Made(), inject: [Dep] }, { provide: Alias, useExisting: Dep }] })
  class AppModule {}
  const graph = await scanModules(AppModule)
  const container = new Container(graph)
  const consumer = container.enhancer(graph.root, Consumer)
  const deps = [...consumer.deps, ...container.enhancer(graph.root, Made).deps, ...container.enhancer(graph.root, Alias).deps]
  assert.deepEqual(deps.map((dep) => [dep.index, dep.property, dep.binding?.token ?? dep.builtin]), [
    [0, undefined, Dep], [1, undefined, 'fastify'], [2, undefined, undefined], [-1, 'byProperty', Dep], [0, undefined, Dep], [0, undefined, Dep]
  ])
  assert.equal(consumer.params, 3)
  for (const dep of deps) assert.equal(sameShape(dep, deps[0]), true)
})

test('the NestJS reader is asked only about classes bound after the application: it read the others before the scan', async () => {
  @Injectable() class Guard { canActivate () { return true } }
  @UseGuards(Guard)
  @Controller('read')
  class ReadController { @Get() get () { return 'read' } }
  @Module({ controllers: [ReadController] })
  class AppModule {}
  @Injectable() class LateMiddleware { use () {} }

  const read: Function[] = []
  const graph = await scanModules(AppModule)
  const container = new Container(graph, [], undefined, { aliases: new Map(), readClass: (cls) => { read.push(cls) } })
  container.bindApplication([], scanControllers(graph.root).map(controllerUse), [graph.root])
  container.finalize()
  assert.deepEqual(read, [])
  container.lateEnhancer(graph.root, LateMiddleware)
  assert.deepEqual(read, [LateMiddleware])
})
