import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Controller, Get, Global, Inject, Injectable, LazyModuleLoader, Module, ModuleRef, Scope, ContextIdFactory, APP_GUARD,
  type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const events: string[] = []

@Injectable() class Counter { count = 0 }
@Module({ providers: [Counter], exports: [Counter] })
class CounterModule {}

@Global() @Module({ providers: [{ provide: 'GREETING', useValue: 'hello' }], exports: ['GREETING'] })
class ConfigModule {}

@Injectable()
class Reports implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  static built = 0
  constructor (@Inject(Counter) readonly counter: Counter, @Inject('GREETING') readonly greeting: string) { Reports.built++ }
  onModuleInit () { events.push('Reports.onModuleInit') }
  onApplicationBootstrap () { events.push('Reports.onApplicationBootstrap') }
  onModuleDestroy () { events.push('Reports.onModuleDestroy') }
}
@Injectable({ scope: Scope.REQUEST }) class ReportRun { readonly at = Symbol('run') }
@Module({ imports: [CounterModule], providers: [Reports, ReportRun], exports: [Reports] })
class ReportsModule {}

@Injectable()
class Loader {
  constructor (@Inject(LazyModuleLoader) readonly lazy: LazyModuleLoader, @Inject(Counter) readonly counter: Counter) {}
}
@Controller('ping')
class PingController { @Get() ping () { return 'pong' } }
@Module({ imports: [CounterModule, ConfigModule], controllers: [PingController], providers: [Loader] })
class AppModule {}

test('load() adds a module at run time: its providers see global modules, and the modules the application built are theirs', async (t) => {
  events.length = 0
  Reports.built = 0
  const app = await build(t, AppModule)
  const loader = app.container.get(Loader)
  assert.equal(Reports.built, 0, 'not built at startup')
  const moduleRef = await loader.lazy.load(() => ReportsModule)
  assert.ok(moduleRef instanceof ModuleRef)
  const reports = moduleRef.get(Reports)
  assert.equal(reports.counter, loader.counter, 'CounterModule is the application\'s, with its instance')
  assert.equal(reports.greeting, 'hello')
  assert.deepEqual(events, ['Reports.onModuleInit', 'Reports.onApplicationBootstrap'])
  // Request-scoped providers of the module resolve per context.
  const contextId = ContextIdFactory.create()
  const run = await moduleRef.resolve(ReportRun, contextId)
  assert.equal(await moduleRef.resolve(ReportRun, contextId), run)
  assert.notEqual(await moduleRef.resolve(ReportRun), run)
  // The routes keep answering.
  assert.equal((await app.inject('/ping')).body, 'pong')
  await app.close()
  assert.deepEqual(events.slice(2), ['Reports.onModuleDestroy'])
})

test('load() of a module loaded before gives the same ModuleRef, built once, concurrent loads included; one the application imports gives its own', async (t) => {
  Reports.built = 0
  const app = await build(t, AppModule)
  const lazy = app.container.get(ModuleRef).get(LazyModuleLoader)
  const [first, second] = await Promise.all([lazy.load(() => ReportsModule), lazy.load(async () => await Promise.resolve(ReportsModule))])
  assert.equal(first, second)
  assert.equal(await lazy.load(() => ReportsModule), first)
  assert.equal(Reports.built, 1)
  const counterRef = await lazy.load(() => CounterModule)
  assert.equal(counterRef.get(Counter, { strict: true }), app.container.get(Counter))
})

test('load() takes a dynamic module, and a Promise of one (a module imported with import())', async (t) => {
  @Module({})
  class Feature {
    static forRoot (value: string) { return { module: Feature, providers: [{ provide: 'FEATURE', useValue: value }], exports: ['FEATURE'] } }
  }
  const app = await build(t, AppModule)
  const lazy = app.container.get(Loader).lazy
  const ref = await lazy.load(async () => await Promise.resolve(Feature.forRoot('on')))
  assert.equal(ref.get('FEATURE'), 'on')
})

@Controller('late')
class LateController { @Get() late () { return 'late' } }
@Module({ controllers: [LateController] })
class LateRoutesModule {}
@Module({ imports: [LateRoutesModule], providers: [{ provide: 'OUTER', useValue: 1 }] })
class OuterModule {}
@Module({ providers: [{ provide: APP_GUARD, useValue: { canActivate: () => true } }] })
class LateGuardModule {}

test('a module loaded at run time may not declare controllers nor global enhancers: a coded error naming it; nothing of it is kept', async (t) => {
  const app = await build(t, AppModule)
  const lazy = app.container.get(Loader).lazy
  await assert.rejects(lazy.load(() => LateRoutesModule), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: /^LazyModuleLoader\.load\(\): LateRoutesModule declares controllers \(LateController\); a module loaded at run time adds providers only/
  })
  await assert.rejects(lazy.load(() => OuterModule), { message: /LateRoutesModule \(imported by OuterModule\) declares controllers/ })
  await assert.rejects(lazy.load(() => LateGuardModule), { code: 'FDP_ERR_INVALID_DECLARATION', message: /LateGuardModule declares a global enhancer/ })
  assert.equal((await app.inject('/late')).statusCode, 404)
  assert.equal((await app.inject('/ping')).body, 'pong')
})

@Injectable() class NeedsMissing { constructor (@Inject('MISSING') readonly missing: unknown) {} }
@Module({ imports: [CounterModule], providers: [NeedsMissing] })
class BrokenModule {}
@Injectable() class Throws { constructor () { throw new Error('no database') } }
@Module({ providers: [Throws] })
class ThrowingModule {}

test('a module that cannot be bound or built fails load() with the error registration would give, and is not kept', async (t) => {
  const app = await build(t, AppModule)
  const lazy = app.container.get(Loader).lazy
  for (let i = 0; i < 2; i++) {
    await assert.rejects(lazy.load(() => BrokenModule), { code: 'FDP_ERR_UNKNOWN_DEPENDENCY', message: /Cannot resolve "MISSING" .* of NeedsMissing in module BrokenModule/ })
    await assert.rejects(lazy.load(() => ThrowingModule), { code: 'FDP_ERR_PROVIDER_FAILED', message: /Throws \(provider of ThrowingModule\) could not be built: no database/ })
  }
  await assert.rejects(lazy.load(() => 'ReportsModule' as never), { code: 'FDP_ERR_NOT_A_MODULE', message: /the module LazyModuleLoader\.load\(\) was given is string "ReportsModule", which is not a module/ })
  await assert.rejects(lazy.load(ReportsModule as never), { code: 'FDP_ERR_INVALID_DECLARATION', message: /takes a function returning the module/ })
  // What failed left nothing behind: a module that works still loads.
  assert.ok((await lazy.load(() => ReportsModule)).get(Reports) instanceof Reports)
})

test('a hook of a lazily loaded module that throws fails load() naming it', async (t) => {
  @Injectable() class BadInit { onModuleInit () { throw new Error('not ready') } }
  @Module({ providers: [BadInit] })
  class BadInitModule {}
  const app = await build(t, AppModule)
  await assert.rejects(app.container.get(Loader).lazy.load(() => BadInitModule), { code: 'FDP_ERR_LIFECYCLE_HOOK', message: /BadInit\.onModuleInit\(\) failed: not ready/ })
})
