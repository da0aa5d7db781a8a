import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Global, Controller, Get, Injectable, Inject, Scope } from '../plugin/index.js'
import { registrationError } from './helpers/registration.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

// Each hook awaits a tick between its start and end marks: interleaved marks would mean hooks were not awaited.
function hooks (events: string[], name: string) {
  return {
    async onModuleInit () { events.push(`init ${name}`); await tick(); events.push(`/init ${name}`) },
    async onModuleDestroy () { events.push(`destroy ${name}`); await tick(); events.push(`/destroy ${name}`) }
  }
}

function withHooks<T extends new (...args: any[]) => object> (events: string[], name: string, cls: T): T {
  Object.assign(cls.prototype, hooks(events, name))
  return cls
}

test('init runs deepest modules and globals first; providers by dependency, then controllers, then the module class', async () => {
  const events: string[] = []

  @Injectable() class GlobalDep {}
  @Module({ providers: [withHooks(events, 'GlobalDep', GlobalDep)], exports: [GlobalDep] })
  class GlobalDepModule {}
  @Injectable() class GlobalService { constructor (@Inject(GlobalDep) readonly dep: GlobalDep) {} }
  @Global() @Module({ imports: [GlobalDepModule], providers: [withHooks(events, 'GlobalService', GlobalService)], exports: [GlobalService] })
  class GlobalModule {}

  @Injectable() class Db {}
  @Module({ providers: [withHooks(events, 'Db', Db)], exports: [Db] })
  class DbModule {}

  @Injectable() class FeatureService { constructor (@Inject(Db) readonly db: Db) {} }
  // Declared before the provider it depends on: dependencies still come first.
  @Injectable() class FeatureHelper { constructor (@Inject(FeatureService) readonly service: FeatureService) {} }
  @Controller('feature') class FeatureController { @Get() get () { return 1 } }
  @Module({
    imports: [DbModule],
    controllers: [withHooks(events, 'FeatureController', FeatureController)],
    providers: [withHooks(events, 'FeatureHelper', FeatureHelper), withHooks(events, 'FeatureService', FeatureService)],
    exports: [FeatureService]
  })
  class FeatureModule {}

  @Injectable() class AppService { constructor (@Inject(FeatureService) readonly feature: FeatureService, @Inject(GlobalService) readonly g: GlobalService) {} }
  @Controller('app') class AppController { @Get() get () { return 1 } }
  @Module({ imports: [FeatureModule, GlobalModule], controllers: [withHooks(events, 'AppController', AppController)], providers: [withHooks(events, 'AppService', AppService)] })
  class AppModule {}

  for (const [cls, name] of [[GlobalDepModule, 'GlobalDepModule'], [GlobalModule, 'GlobalModule'], [DbModule, 'DbModule'], [FeatureModule, 'FeatureModule'], [AppModule, 'AppModule']] as const) {
    withHooks(events, name, cls)
  }

  const order = ['GlobalDep', 'GlobalDepModule', 'GlobalService', 'GlobalModule', 'Db', 'DbModule',
    'FeatureService', 'FeatureHelper', 'FeatureController', 'FeatureModule', 'AppService', 'AppController', 'AppModule']

  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  assert.deepEqual(events, order.flatMap((name) => [`init ${name}`, `/init ${name}`]), 'every init ran, awaited, before ready() resolved')

  events.length = 0
  await app.close()
  assert.deepEqual(events, [...order].reverse().flatMap((name) => [`destroy ${name}`, `/destroy ${name}`]), 'destroy runs in reverse on close()')
})

test('a module imported by several modules runs its hooks once', async () => {
  const events: string[] = []
  @Injectable() class Shared {}
  @Module({ providers: [withHooks(events, 'Shared', Shared)], exports: [Shared] })
  class SharedModule {}
  @Module({ imports: [SharedModule] }) class A {}
  @Module({ imports: [SharedModule] }) class B {}
  @Module({ imports: [A, B, SharedModule] }) class AppModule {}

  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  await app.close()
  assert.deepEqual(events, ['init Shared', '/init Shared', 'destroy Shared', '/destroy Shared'])
})

test('request-scoped providers get no module hooks; transient ones get one per instance', async () => {
  let inits = 0
  @Injectable({ scope: Scope.REQUEST }) class PerRequest { onModuleInit () { inits += 100 } }
  @Injectable({ scope: Scope.TRANSIENT }) class Transient { onModuleInit () { inits++ } }
  @Injectable() class User { constructor (@Inject(Transient) readonly a: Transient, @Inject(Transient) readonly b: Transient) {} }
  @Module({ providers: [PerRequest, Transient, User] })
  class AppModule {}
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  await app.close()
  assert.equal(inits, 2)
})

test('a throwing onModuleInit rejects ready() naming the class; later hooks do not run', async () => {
  const events: string[] = []
  const cause = new Error('cannot connect')
  @Injectable() class Db { onModuleInit () { events.push('Db'); throw cause } }
  @Injectable() class Later { constructor (@Inject(Db) readonly db: Db) {} onModuleInit () { events.push('Later') } }
  @Module({ providers: [Db, Later] })
  class AppModule {}

  const error = await registrationError({ module: AppModule }) as Error & { code: string, cause: unknown }
  assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
  assert.equal(error.message, 'Db.onModuleInit() failed: cannot connect')
  assert.equal(error.cause, cause)
  assert.deepEqual(events, ['Db'])
})

test('an async onModuleInit rejection of a module class names the module', async () => {
  @Module({})
  class AppModule { async onModuleInit () { throw new TypeError('bad config') } }
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
  assert.equal(error.message, 'AppModule.onModuleInit() failed: bad config')
})

test('a throwing onModuleDestroy does not stop the others, and close() rejects reporting it', async () => {
  const events: string[] = []
  @Injectable() class First { onModuleDestroy () { events.push('First') } }
  @Injectable() class Second { constructor (@Inject(First) readonly f: First) {} async onModuleDestroy () { events.push('Second'); throw new Error('flush failed') } }
  @Injectable() class Third { constructor (@Inject(Second) readonly s: Second) {} onModuleDestroy () { events.push('Third'); throw new Error('still busy') } }
  @Injectable() class Fourth { constructor (@Inject(Third) readonly t: Third) {} onModuleDestroy () { events.push('Fourth') } }
  @Module({ providers: [First, Second, Third, Fourth] })
  class AppModule {}

  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  await assert.rejects(app.close(), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
    assert.equal(error.message, 'Third.onModuleDestroy() failed: still busy; Second.onModuleDestroy() failed: flush failed')
    assert.ok(error.cause instanceof AggregateError)
    assert.deepEqual(error.cause.errors.map((e: Error) => e.message), ['still busy', 'flush failed'])
    return true
  })
  assert.deepEqual(events, ['Fourth', 'Third', 'Second', 'First'])
})
