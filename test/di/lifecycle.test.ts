import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Global, Controller, Get, Injectable, Inject, Scope } from '../../plugin/index.js'
import { registrationError } from '../helpers/registration.js'

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

test('request-scoped providers get no lifecycle hooks; transient ones get one per instance', async () => {
  const hooks = ['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown']
  const counts: Record<string, number> = {}
  const count = (hook: string, by: number) => () => { counts[hook] = (counts[hook] ?? 0) + by }
  @Injectable({ scope: Scope.REQUEST }) class PerRequest {}
  @Injectable({ scope: Scope.TRANSIENT }) class Transient {}
  for (const hook of hooks) {
    Object.assign(PerRequest.prototype, { [hook]: count(hook, 100) })
    Object.assign(Transient.prototype, { [hook]: count(hook, 1) })
  }
  @Injectable() class User { constructor (@Inject(Transient) readonly a: Transient, @Inject(Transient) readonly b: Transient) {} }
  @Module({ providers: [PerRequest, Transient, User] })
  class AppModule {}
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  await app.close()
  assert.deepEqual(counts, Object.fromEntries(hooks.map((hook) => [hook, 2])))
})

for (const hook of ['onModuleInit', 'onApplicationBootstrap'] as const) {
  test(`a throwing ${hook} rejects ready() naming the class and hook; later hooks do not run`, async () => {
    const events: string[] = []
    const cause = new Error('cannot connect')
    @Injectable() class Db {}
    @Injectable() class Later { constructor (@Inject(Db) readonly db: Db) {} }
    Object.assign(Db.prototype, { [hook] () { events.push('Db'); throw cause } })
    Object.assign(Later.prototype, { async [hook] () { events.push('Later') } })
    @Module({ providers: [Db, Later] })
    class AppModule {}

    const error = await registrationError({ module: AppModule }) as Error & { code: string, cause: unknown }
    assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
    assert.equal(error.message, `Db.${hook}() failed: cannot connect`)
    assert.equal(error.cause, cause)
    assert.deepEqual(events, ['Db'])
  })
}

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

// Every hook of the application lifecycle, each awaited (start and end marks must not interleave).
function allHooks (events: string[], name: string) {
  const mark = (hook: string) => async (signal?: string) => {
    events.push(`${hook} ${name}${signal === undefined ? '' : ` ${signal}`}`)
    await tick()
    events.push(`/${hook} ${name}`)
  }
  return {
    onModuleInit: mark('init'),
    onApplicationBootstrap: mark('bootstrap'),
    onModuleDestroy: mark('destroy'),
    beforeApplicationShutdown: mark('beforeShutdown'),
    onApplicationShutdown: mark('shutdown')
  }
}

function withAllHooks<T extends new (...args: any[]) => object> (events: string[], name: string, cls: T): T {
  Object.assign(cls.prototype, allHooks(events, name))
  return cls
}

const phase = (events: string[], hook: string) => events.filter((event) => event.startsWith(`${hook} `)).map((event) => event.slice(hook.length + 1))

test('NestJS\'s order: every onModuleInit, then every onApplicationBootstrap; on close every onModuleDestroy, beforeApplicationShutdown, onApplicationShutdown', async () => {
  const events: string[] = []
  @Injectable() class Db {}
  @Module({ providers: [withAllHooks(events, 'Db', Db)], exports: [Db] })
  class DbModule {}
  @Injectable() class Cats { constructor (@Inject(Db) readonly db: Db) {} }
  @Controller('cats') class CatsController { constructor (@Inject(Cats) readonly cats: Cats) {} @Get() list () { return [] } }
  @Module({ imports: [DbModule], controllers: [withAllHooks(events, 'CatsController', CatsController)], providers: [withAllHooks(events, 'Cats', Cats)] })
  class AppModule {}
  withAllHooks(events, 'DbModule', DbModule)
  withAllHooks(events, 'AppModule', AppModule)
  const order = ['Db', 'DbModule', 'Cats', 'CatsController', 'AppModule']

  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  assert.deepEqual(phase(events, 'bootstrap'), [], 'register resolves once the modules are initialised; the app is not ready yet')
  // A plugin registered after the decorator application loads before the bootstrap hooks run.
  await app.register(async () => { events.push('later plugin loaded') })
  await app.ready()
  assert.deepEqual(events, [
    ...order.flatMap((name) => [`init ${name}`, `/init ${name}`]),
    'later plugin loaded',
    ...order.flatMap((name) => [`bootstrap ${name}`, `/bootstrap ${name}`])
  ])

  events.length = 0
  await app.close()
  const reversed = [...order].reverse()
  assert.deepEqual(events, [
    ...reversed.flatMap((name) => [`destroy ${name}`, `/destroy ${name}`]),
    ...reversed.flatMap((name) => [`beforeShutdown ${name}`, `/beforeShutdown ${name}`]),
    ...reversed.flatMap((name) => [`shutdown ${name}`, `/shutdown ${name}`])
  ], 'no signal is passed when app.close() is called directly')
})

test('throwing shutdown hooks do not stop the others; close() then rejects naming each class and hook', async () => {
  const events: string[] = []
  @Injectable() class Queue {
    onModuleDestroy () { events.push('destroy Queue'); throw new Error('queue busy') }
    beforeApplicationShutdown () { events.push('beforeShutdown Queue') }
    onApplicationShutdown () { events.push('shutdown Queue') }
  }
  @Injectable() class Mailer {
    constructor (@Inject(Queue) readonly queue: Queue) {}
    async beforeApplicationShutdown () { events.push('beforeShutdown Mailer'); throw new Error('smtp gone') }
    onApplicationShutdown () { events.push('shutdown Mailer') }
  }
  @Module({ providers: [Queue, Mailer] })
  class AppModule { onApplicationShutdown () { events.push('shutdown AppModule'); throw new TypeError('log closed') } }

  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  await assert.rejects(app.close(), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
    assert.equal(error.message, 'Queue.onModuleDestroy() failed: queue busy; Mailer.beforeApplicationShutdown() failed: smtp gone; AppModule.onApplicationShutdown() failed: log closed')
    assert.deepEqual(error.cause.errors.map((e: Error) => e.message), ['queue busy', 'smtp gone', 'log closed'])
    return true
  })
  assert.deepEqual(events, ['destroy Queue', 'beforeShutdown Mailer', 'beforeShutdown Queue', 'shutdown AppModule', 'shutdown Mailer', 'shutdown Queue'])
})

test('shutdownSignals: listens only while the app is open, only when asked; bad entries fail register', async () => {
  const before = process.listenerCount('SIGUSR2')
  @Module({})
  class AppModule {}
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: ['SIGUSR2', ' sigusr2 '] })
  assert.equal(process.listenerCount('SIGUSR2'), before + 1, 'one listener per signal, names as NestJS reads them')
  await app.close()
  assert.equal(process.listenerCount('SIGUSR2'), before)

  const plain = Fastify()
  await plain.register(decoratorPlugin, { module: AppModule })
  assert.equal(process.listenerCount('SIGUSR2'), before)
  await plain.close()

  for (const [shutdownSignals, message] of [
    ['SIGTERM', 'decoratorPlugin option "shutdownSignals" must be an array of signal names such as [\'SIGTERM\', \'SIGINT\'], given string "SIGTERM".'],
    [['SIGTERM', 'SIGNOPE'], 'decoratorPlugin option "shutdownSignals"[1] must be the name of a signal a process can catch (SIGTERM, SIGINT, SIGHUP, ...), given string "SIGNOPE".'],
    [['SIGKILL'], /"shutdownSignals"\[0\] must be the name of a signal a process can catch .*given string "SIGKILL"/],
    [[15], /"shutdownSignals"\[0\].*given number 15/]
  ] as const) {
    const error = await registrationError({ module: AppModule, shutdownSignals })
    assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
    if (typeof message === 'string') assert.equal(error.message, message)
    else assert.match(error.message, message)
  }
  assert.equal(process.listenerCount('SIGTERM'), 0)
})
