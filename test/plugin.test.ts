import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Injectable, Inject, Param, type Type } from '../plugin/index.js'
import { build } from './helpers/app.js'
import { registrationError } from './helpers/registration.js'
import { collected } from './helpers/gc.js'

@Injectable()
class Greeter { greet () { return { hello: 'world' } } }

@Controller('hello')
class HelloController {
  constructor (@Inject(Greeter) private readonly greeter: Greeter) {}
  @Get() get () { return this.greeter.greet() }
}

@Module({ controllers: [HelloController], providers: [Greeter] })
class AppModule {}

test('serves a controller beside plain routes', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.get('/legacy', async () => ({ plain: true })))
  assert.deepEqual((await app.inject('/hello')).json(), { hello: 'world' })
  assert.deepEqual((await app.inject('/legacy')).json(), { plain: true })
  assert.ok(app.container.get(Greeter) instanceof Greeter)
})

test('register fails on a missing or non-module "module" option, saying what was given and what is expected', async () => {
  @Injectable() class Service {}
  @Controller('c') class SomeController {}
  const cases: Array<[unknown, string]> = [
    [{}, 'given undefined. Give a class decorated with @Module().'],
    [{ module: undefined }, 'given undefined. Give a class decorated with @Module().'],
    [{ module: 'AppModule' }, 'given string "AppModule". Give a class decorated with @Module().'],
    [{ module: class NotAModule {} }, 'given class NotAModule. Decorate the class with @Module().'],
    [{ module: Service }, 'given class Service. It is an @Injectable() class: list it in the root module\'s providers.'],
    [{ module: SomeController }, 'given class SomeController. It is a @Controller() class: list it in a module\'s controllers.'],
    [{ module: new AppModule() }, 'given an object with keys []. It is an instance of AppModule: pass the class itself.']
  ]
  for (const [options, given] of cases) {
    const error = await registrationError(options)
    assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
    assert.equal(error.message, `decoratorPlugin option "module" must be a class decorated with @Module() (the root module), ${given}`)
  }
})

test('register without options fails the same way', async () => {
  const app = Fastify()
  app.register(decoratorPlugin as any)
  await assert.rejects(async () => { await app.ready() }, { code: 'FDP_ERR_INVALID_OPTIONS', message: /option "module" must be a class decorated with @Module\(\)/ })
})

test('other options are checked: prefix, global enhancer lists, overrides', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ prefix: 1 }, 'decoratorPlugin option "prefix" must be a string, given number 1.'],
    [{ globalGuards: {} }, 'decoratorPlugin option "globalGuards" must be an array, given an object with keys [].'],
    [{ globalPipes: [class NoTransform {}] }, 'decoratorPlugin option "globalPipes"[0] must be a class or an instance with transform(), given class NoTransform.'],
    [{ globalInterceptors: [{}] }, 'decoratorPlugin option "globalInterceptors"[0] must be a class or an instance with intercept(), given an object with keys [].'],
    [{ globalFilters: [null] }, 'decoratorPlugin option "globalFilters"[0] must be a class or an instance with catch(), given null.'],
    [{ overrides: Greeter }, 'decoratorPlugin option "overrides" must be an array of providers, given class Greeter.']
  ]
  for (const [options, message] of cases) {
    const error = await registrationError({ module: AppModule, ...options })
    assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
    assert.equal(error.message, message)
  }
})

test('the plugin is wrapped with fastify-plugin: named, for Fastify 5, decorating the parent', async (t) => {
  const meta = (decoratorPlugin as any)[Symbol.for('plugin-meta')]
  assert.equal(meta.name, 'fastify-decorator-plugin')
  assert.equal(meta.fastify, '5.x')
  assert.equal((decoratorPlugin as any)[Symbol.for('skip-override')], true)
  const app = await build(t, AppModule)
  assert.equal(app.hasDecorator('container'), true)
  assert.equal(app.hasPlugin('fastify-decorator-plugin'), true)
})

test('reflect-metadata is loaded by the package itself', () => {
  assert.equal(typeof Reflect.getMetadata, 'function')
  assert.equal(typeof Reflect.defineMetadata, 'function')
})

@Controller('admin')
class AdminController { @Get() get () { return { admin: true } } }
@Module({ controllers: [AdminController] })
class AdminModule {}

const alreadyRegistered = 'decoratorPlugin is already registered on this Fastify instance or on a parent context: one context holds one application, ' +
  'and a second would clash with the first one\'s container decoration and routes. To add modules to that application, import them into its root module. ' +
  'To run separate applications, register each of them, the first one included, in a context of its own: ' +
  'app.register(async (child) => { await child.register(decoratorPlugin, { module: AdminModule }) }).'

test('registering the plugin twice on one instance fails with one coded error showing the fix', async () => {
  for (const second of [AdminModule, AppModule]) {
    const app = Fastify()
    await app.register(decoratorPlugin, { module: AppModule })
    const error = await registrationError({ module: second }, app)
    assert.equal(error.code, 'FDP_ERR_ALREADY_REGISTERED', `${second.name}: ${error.message}`)
    assert.equal(error.message, alreadyRegistered)
  }
  // A child context inherits the parent's application: registering another there fails the same way.
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  app.register(async (child) => { await child.register(decoratorPlugin, { module: AdminModule }) })
  await assert.rejects(async () => { await app.ready() }, { code: 'FDP_ERR_ALREADY_REGISTERED' })
  await app.close()
})

test('two applications in one app, each in a context of its own, as the error suggests', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  app.get('/plain', async () => ({ plain: true }))
  const containers: unknown[] = []
  for (const module of [AppModule, AdminModule]) {
    app.register(async (child) => {
      await child.register(decoratorPlugin, { module })
      containers.push(child.container)
    })
  }
  await app.ready()
  assert.deepEqual((await app.inject('/hello')).json(), { hello: 'world' })
  assert.deepEqual((await app.inject('/admin')).json(), { admin: true })
  assert.deepEqual((await app.inject('/plain')).json(), { plain: true })
  assert.equal(app.hasDecorator('container'), false)
  assert.equal(containers.length, 2)
  assert.notEqual(containers[0], containers[1])
  assert.deepEqual(Object.keys(containers[0] as object), ['get', 'resolve'])
})

test('once the app is ready, the route options the plugin planned are no longer reachable', async (t) => {
  @Controller('kept')
  class KeptController {
    @Get() list () { return [] }
    @Get(':id') get (@Param('id') id: string) { return { id } }
  }
  @Module({ controllers: [KeptController] })
  class KeptModule {}
  // What registration hands Fastify: the route's own config and hook arrays, which the plan also holds.
  const refs: Array<WeakRef<object>> = []
  const app = await build(t, KeptModule, {}, (app) => app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') refs.push(new WeakRef(route.config!), new WeakRef(route.onRequest as object[]), new WeakRef(route.preValidation as object[]))
  }))
  assert.equal(refs.length, 6)
  assert.deepEqual(await collected(refs), refs.map(() => true))
  // The routes still answer: what they need was kept.
  assert.deepEqual((await app.inject('/kept/7')).json(), { id: '7' })
})

test('controllers registered in batches: every controller serves, and no batch keeps its plans', async (t) => {
  // More controllers than one registration batch holds, the last batch partly filled.
  const controllers: Type[] = []
  for (let c = 0; c < 70; c++) {
    @Controller(`c${c}`)
    class BatchedController {
      @Get() list () { return { c } }
    }
    controllers.push(BatchedController)
  }
  @Module({ controllers })
  class BatchedModule {}
  const refs: Array<WeakRef<object>> = []
  const app = await build(t, BatchedModule, {}, (app) => app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') refs.push(new WeakRef(route.config!))
  }))
  assert.equal(refs.length, 70)
  assert.deepEqual(await collected(refs), refs.map(() => true))
  for (const c of [0, 31, 32, 63, 64, 69]) assert.deepEqual((await app.inject(`/c${c}`)).json(), { c })
})
