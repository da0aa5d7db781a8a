import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyRequest } from 'fastify'
import {
  Module, Controller, Get, Injectable, Inject, Scope, REQUEST, ModuleRef, ContextIdFactory, ApplicationConfig, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

@Injectable() class FeatureService { name = 'feature' }
@Controller('feature')
class FeatureController { @Get() get () { return 'feature' } }
@Module({ controllers: [FeatureController], providers: [FeatureService] })
class FeatureModule {}

@Injectable() class AppService { name = 'app' }

test('ModuleRef is injectable; get() looks in the whole application, { strict: true } in the module\'s own declarations', async (t) => {
  @Injectable()
  class Lookup {
    constructor (@Inject(ModuleRef) readonly moduleRef: ModuleRef) {}
  }
  @Module({ imports: [FeatureModule], providers: [AppService, Lookup] })
  class AppModule {}

  const app = await build(t, AppModule)
  const { moduleRef } = app.container.get(Lookup)
  assert.ok(moduleRef instanceof ModuleRef)
  assert.equal(moduleRef.get(FeatureService), app.container.get(FeatureService), 'not exported, still found')
  assert.equal(moduleRef.get(FeatureController, { strict: false }).get(), 'feature')
  assert.equal(moduleRef.get(AppService, { strict: true }), app.container.get(AppService))
  assert.throws(() => moduleRef.get(FeatureService, { strict: true }), {
    code: 'FDP_ERR_UNKNOWN_TOKEN',
    message: 'moduleRef.get(FeatureService, { strict: true }): AppModule does not declare it (FeatureModule does). Leave strict off to look in the whole application.'
  })
  assert.throws(() => moduleRef.get('NOPE'), {
    code: 'FDP_ERR_UNKNOWN_TOKEN',
    message: 'moduleRef.get("NOPE"): no module of the application provides this token.'
  })
  assert.equal(app.container.get(ModuleRef).get(AppService, { strict: true }), app.container.get(AppService), 'app.container gives the root module\'s')
})

test('each module injects its own ModuleRef', async (t) => {
  @Injectable()
  class FeatureLookup { constructor (@Inject(ModuleRef) readonly moduleRef: ModuleRef) {} }
  @Module({ providers: [FeatureService, FeatureLookup], exports: [FeatureLookup] })
  class LookupFeatureModule {}
  @Controller('root')
  class RootController { constructor (@Inject(ModuleRef) readonly moduleRef: ModuleRef) {} }
  @Module({ imports: [LookupFeatureModule], controllers: [RootController], providers: [AppService] })
  class AppModule {}

  const app = await build(t, AppModule)
  const feature = app.container.get(FeatureLookup).moduleRef
  const root = app.container.get(RootController).moduleRef
  assert.notEqual(feature, root)
  assert.ok(feature.get(FeatureService, { strict: true }) instanceof FeatureService)
  assert.ok(root.get(RootController, { strict: true }) instanceof RootController)
  assert.throws(() => root.get(FeatureService, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
})

test('get() works from onModuleInit; in a constructor the instance may not be built yet', async (t) => {
  @Injectable()
  class Early { constructor (@Inject(ModuleRef) moduleRef: ModuleRef) { moduleRef.get(AppService) } }
  @Module({ providers: [Early, AppService] })
  class EarlyModule {}
  const error = await registrationError({ module: EarlyModule })
  assert.equal(error.code, 'FDP_ERR_PROVIDER_FAILED')
  assert.match(error.message, /moduleRef\.get\(AppService\): AppService is not built yet; call get\(\) from onModuleInit\(\) or later, or inject it\./)

  let found: unknown
  @Injectable()
  class Late implements OnModuleInit {
    constructor (@Inject(ModuleRef) private readonly moduleRef: ModuleRef) {}
    onModuleInit () { found = this.moduleRef.get(AppService) }
  }
  @Module({ providers: [Late, AppService] })
  class LateModule {}
  const app = await build(t, LateModule)
  assert.equal(found, app.container.get(AppService))
})

test('get() of a request-scoped or transient provider points to resolve()', async (t) => {
  @Injectable({ scope: Scope.TRANSIENT }) class Fresh {}
  @Injectable({ scope: Scope.REQUEST }) class PerRequest {}
  @Module({ providers: [Fresh, PerRequest] })
  class AppModule {}
  const app = await build(t, AppModule)
  const moduleRef = app.container.get(ModuleRef)
  assert.throws(() => moduleRef.get(Fresh), {
    code: 'FDP_ERR_SCOPED_PROVIDER',
    message: 'moduleRef.get(Fresh): Fresh is transient; use await moduleRef.resolve(Fresh) instead.'
  })
  assert.throws(() => moduleRef.get(PerRequest), { code: 'FDP_ERR_SCOPED_PROVIDER', message: /PerRequest is request-scoped/ })
})

test('resolve(): a new transient or request-scoped instance per context, the same within one context', async (t) => {
  @Injectable({ scope: Scope.TRANSIENT }) class TransientService {}
  @Injectable({ scope: Scope.REQUEST })
  class CatsRepository { constructor (@Inject(REQUEST) readonly request: FastifyRequest | undefined) {} }
  @Controller('cats')
  class CatsController {
    constructor (@Inject(CatsRepository) private readonly repository: CatsRepository, @Inject(ModuleRef) private readonly moduleRef: ModuleRef, @Inject(REQUEST) private readonly request: FastifyRequest) {}
    @Get() async same () {
      const contextId = ContextIdFactory.getByRequest(this.request)
      const resolved = await this.moduleRef.resolve(CatsRepository, contextId)
      return { same: resolved === this.repository, url: resolved.request?.url }
    }
  }
  @Module({ controllers: [CatsController], providers: [TransientService, CatsRepository, AppService] })
  class AppModule {}

  const app = await build(t, AppModule)
  const moduleRef = app.container.get(ModuleRef)
  const [a, b] = await Promise.all([moduleRef.resolve(TransientService), moduleRef.resolve(TransientService)])
  assert.ok(a instanceof TransientService)
  assert.notEqual(a, b)
  const contextId = ContextIdFactory.create()
  const [c, d] = await Promise.all([moduleRef.resolve(TransientService, contextId), moduleRef.resolve(TransientService, contextId)])
  assert.equal(c, d)
  assert.notEqual(await moduleRef.resolve(CatsRepository, contextId), await moduleRef.resolve(CatsRepository))
  assert.equal((await moduleRef.resolve(CatsRepository, contextId)).request, undefined, 'a created context has no request')
  assert.equal(await moduleRef.resolve(AppService), app.container.get(AppService), 'a singleton is the singleton')
  await assert.rejects(moduleRef.resolve('NOPE', contextId), {
    code: 'FDP_ERR_UNKNOWN_TOKEN',
    message: 'moduleRef.resolve("NOPE"): no module of the application provides this token.'
  })
  assert.deepEqual((await app.inject('/cats')).json(), { same: true, url: '/cats' })
})

test('create() builds an unregistered class with its dependencies from the module, anew each call', async (t) => {
  @Injectable() class Secret { value = 's3cret' }
  class CatsFactory {
    constructor (@Inject(Secret) readonly secret: Secret) {}
    @Inject(AppService) readonly app!: AppService
  }
  @Injectable()
  class Maker { constructor (@Inject(ModuleRef) readonly moduleRef: ModuleRef) {} }
  @Module({ providers: [Secret, AppService, Maker] })
  class AppModule {}

  const app = await build(t, AppModule)
  const { moduleRef } = app.container.get(Maker)
  const first = await moduleRef.create(CatsFactory)
  const second = await moduleRef.create(CatsFactory)
  assert.ok(first instanceof CatsFactory)
  assert.notEqual(first, second)
  assert.equal(first.secret, app.container.get(Secret))
  assert.equal(first.app, app.container.get(AppService))
  assert.throws(() => moduleRef.get(CatsFactory), { code: 'FDP_ERR_UNKNOWN_TOKEN' }, 'a created instance is not registered')

  class Missing { constructor (@Inject('NOPE') readonly nope: unknown) {} }
  await assert.rejects(moduleRef.create(Missing), {
    code: 'FDP_ERR_UNKNOWN_DEPENDENCY',
    message: 'Cannot resolve "NOPE" at index [0] of Missing in module AppModule. Add "NOPE" to AppModule\'s providers, or import a module that exports it.'
  })
  await assert.rejects(moduleRef.create('CatsFactory' as any), {
    code: 'FDP_ERR_INVALID_PROVIDER',
    message: 'moduleRef.create() takes a class, given string "CatsFactory".'
  })
})

test('several providers under one token: { each: true } gives one per module declaring it, in module order; without it the last declared in a module wins', async (t) => {
  @Module({ providers: [{ provide: 'PLUGIN', useValue: 'a1' }, { provide: 'PLUGIN', useValue: 'a2' }], exports: ['PLUGIN'] })
  class AModule {}
  @Module({ providers: [{ provide: 'PLUGIN', useValue: 'b' }], exports: ['PLUGIN'] })
  class BModule {}
  @Injectable({ scope: Scope.REQUEST })
  class Scoped { readonly at = Math.random() }
  @Module({ imports: [AModule, BModule], providers: [{ provide: 'PLUGIN', useValue: 'root' }, { provide: 'SCOPED', useClass: Scoped }] })
  class AppModule {}
  const app = await build(t, AppModule)
  const moduleRef = app.container.get(ModuleRef)
  const all = moduleRef.get<string>('PLUGIN', { each: true })
  assert.deepEqual([...all].sort(), ['a2', 'b', 'root'])
  assert.deepEqual(moduleRef.get('PLUGIN', { each: true, strict: true }), all, 'each looks in the whole application')
  assert.equal(moduleRef.get('PLUGIN'), 'root')
  assert.deepEqual(await moduleRef.resolve('PLUGIN', undefined, { each: true }), all)
  const contextId = ContextIdFactory.create()
  const [scoped] = await moduleRef.resolve<Scoped>('SCOPED', contextId, { each: true })
  assert.equal(scoped, await moduleRef.resolve('SCOPED', contextId))
  assert.throws(() => moduleRef.get('SCOPED', { each: true }), { code: 'FDP_ERR_SCOPED_PROVIDER' })
  assert.throws(() => moduleRef.get('NONE', { each: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN', message: 'moduleRef.get("NONE", { each: true }): no module of the application provides this token.' })
})

test('introspect() gives a provider\'s scope, what it depends on counted; registerRequestByContextId() sets REQUEST for a context', async (t) => {
  @Injectable({ scope: Scope.REQUEST })
  class PerRequest { constructor (@Inject(REQUEST) readonly request: unknown) {} }
  @Injectable({ scope: Scope.TRANSIENT })
  class EachTime {}
  @Injectable()
  class Single {}
  @Injectable()
  class OnRequest { constructor (@Inject(PerRequest) readonly perRequest: PerRequest) {} }
  @Module({ providers: [PerRequest, EachTime, Single, OnRequest] })
  class AppModule {}
  const app = await build(t, AppModule)
  const moduleRef = app.container.get(ModuleRef)
  assert.deepEqual([PerRequest, EachTime, Single, OnRequest].map((cls) => moduleRef.introspect(cls).scope), ['REQUEST', 'TRANSIENT', 'DEFAULT', 'REQUEST'])
  assert.deepEqual(moduleRef.introspect(ModuleRef), { scope: 'DEFAULT' })
  assert.throws(() => moduleRef.introspect('NONE'), { code: 'FDP_ERR_UNKNOWN_TOKEN' })

  const contextId = ContextIdFactory.create()
  const fake = { fake: 'request' }
  moduleRef.registerRequestByContextId(fake, contextId)
  assert.equal((await moduleRef.resolve(PerRequest, contextId)).request, fake)
  assert.equal((await moduleRef.resolve(PerRequest, ContextIdFactory.create())).request, undefined, 'another context has none')
})

test('ApplicationConfig is injectable in any module (the plugin\'s, or @nestjs/core\'s class): the global prefix, versioning and global enhancers the app was registered with', async (t) => {
  const { ApplicationConfig: NestApplicationConfig } = await import('@nestjs/core')
  const guard = { canActivate: () => true }
  @Injectable()
  class ReadsConfig {
    constructor (@Inject(ApplicationConfig) readonly config: ApplicationConfig, @Inject(NestApplicationConfig) readonly nest: ApplicationConfig) {}
  }
  @Module({ providers: [ReadsConfig], exports: [ReadsConfig] })
  class FeatureModule {}
  @Module({ imports: [FeatureModule] })
  class AppModule {}
  const app = await build(t, AppModule, { prefix: 'api', versioning: { type: 'header', header: 'X-Version' }, globalGuards: [guard] })
  const { config, nest } = app.container.get(ReadsConfig)
  assert.equal(nest, config)
  assert.equal(config.getGlobalPrefix(), 'api')
  assert.deepEqual(config.getVersioning(), { type: 'header', header: 'X-Version' })
  assert.deepEqual(config.getGlobalGuards(), [guard])
  assert.deepEqual([config.getGlobalPipes(), config.getGlobalInterceptors(), config.getGlobalFilters(), config.getGlobalPrefixOptions()], [[], [], [], {}])
  assert.equal(app.container.get(ModuleRef).get(ApplicationConfig), config)
})
