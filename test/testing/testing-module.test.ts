import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import request from 'supertest'
import ejs from 'ejs'
import {
  Module, Controller, Get, Post, Param, Body, Injectable, Inject, Render, UseGuards, ParseIntPipe, Version, FASTIFY,
  FastifyAdapter, VersioningType, Logger, APP_GUARD, REQUEST, Scope, ContextIdFactory, type CanActivate, type DynamicModule, type OnModuleInit, type OnModuleDestroy,
  type INestApplication, type NestFastifyApplication, type PipeTransform
} from '../../plugin/index.js'
import { Test, type TestingModule } from '../../plugin/testing.js'
import { loadCors } from '../../plugin/testing/cors.js'

const events: string[] = []

@Injectable()
class CatsRepository {
  static built = 0
  readonly cats = ['Tom']
  constructor () { CatsRepository.built++ }
}

@Injectable()
class CatsService implements OnModuleInit, OnModuleDestroy {
  constructor (@Inject(CatsRepository) readonly repository: CatsRepository) {}
  onModuleInit () { events.push('init') }
  onModuleDestroy () { events.push('destroy') }
  findAll () { return this.repository.cats }
  create (name: string) { this.repository.cats.push(name); return name }
}

@Injectable()
class AdminGuard implements CanActivate {
  canActivate () { return false }
}

@Controller('cats')
class CatsController {
  constructor (@Inject(CatsService) private readonly cats: CatsService) {}
  @Get() findAll () { return { data: this.cats.findAll() } }
  @Get(':id') findOne (@Param('id', ParseIntPipe) id: number) { return { id } }
  @Post() @UseGuards(AdminGuard) create (@Body('name') name: string) { return this.cats.create(name) }
}

@Module({ controllers: [CatsController], providers: [CatsService, CatsRepository, AdminGuard], exports: [CatsService] })
class CatsModule {}

@Module({ imports: [CatsModule] })
class AppModule {}

function reset () {
  events.length = 0
  CatsRepository.built = 0
}

test('compile() builds providers and controllers without running onModuleInit; init() and close() run the hooks', async () => {
  reset()
  const moduleRef: TestingModule = await Test.createTestingModule({
    controllers: [CatsController],
    providers: [CatsService, CatsRepository, AdminGuard]
  }).compile()
  const controller = moduleRef.get<CatsController>(CatsController)
  const service = moduleRef.get(CatsService)
  assert.ok(controller instanceof CatsController)
  assert.deepEqual(controller.findAll(), { data: ['Tom'] })
  service.create('Felix')
  assert.deepEqual(controller.findAll(), { data: ['Tom', 'Felix'] })
  assert.deepEqual(events, [])
  assert.equal(await moduleRef.init(), moduleRef)
  await moduleRef.init()
  assert.deepEqual(events, ['init'])
  await moduleRef.close()
  await moduleRef.close()
  assert.deepEqual(events, ['init', 'destroy'])
})

test('a testing module and its application run the whole lifecycle in NestJS\'s order', async () => {
  const seen: string[] = []
  @Injectable()
  class Lifecycle {
    onModuleInit () { seen.push('init') }
    onApplicationBootstrap () { seen.push('bootstrap') }
    onModuleDestroy () { seen.push('destroy') }
    beforeApplicationShutdown (signal?: string) { seen.push(`beforeShutdown ${signal}`) }
    onApplicationShutdown (signal?: string) { seen.push(`shutdown ${signal}`) }
  }
  const stop = ['destroy', 'beforeShutdown undefined', 'shutdown undefined']

  const moduleRef = await Test.createTestingModule({ providers: [Lifecycle] }).compile()
  await moduleRef.init()
  assert.deepEqual(seen, ['init', 'bootstrap'])
  await moduleRef.close()
  assert.deepEqual(seen, ['init', 'bootstrap', ...stop])

  seen.length = 0
  const app = (await Test.createTestingModule({ providers: [Lifecycle] }).compile()).createNestApplication()
  await app.init()
  assert.deepEqual(seen, ['init', 'bootstrap'])
  await app.close()
  assert.deepEqual(seen, ['init', 'bootstrap', ...stop])
})

test('overrideProvider / overrideGuard replace by token: useValue, useClass, useFactory with inject', async () => {
  class FakeRepository { cats = ['Fake'] }
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(CatsRepository).useClass(FakeRepository)
    .overrideProvider('GREETING').useValue('ignored')
    .compile()
    .catch((error: Error & { code?: string }) => error)
  // A token nothing declares fails at compile(), naming it.
  assert.equal((moduleRef as Error & { code?: string }).code, 'FDP_ERR_UNKNOWN_OVERRIDE')
  assert.match((moduleRef as Error).message, /"GREETING"/)

  const compiled = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(CatsRepository).useClass(FakeRepository)
    .overrideProvider(CatsService).useFactory({ factory: (repository: FakeRepository) => ({ findAll: () => [...repository.cats, 'made'], create: (name: string) => name }), inject: [CatsRepository] })
    .overrideGuard(AdminGuard).useValue({ canActivate: () => true })
    .compile()
  assert.deepEqual(compiled.get(CatsService).findAll(), ['Fake', 'made'])
  const app = compiled.createNestApplication()
  await app.init()
  assert.deepEqual((await app.inject('/cats')).json(), { data: ['Fake', 'made'] })
  assert.equal((await app.inject({ method: 'POST', url: '/cats', payload: { name: 'x' } })).statusCode, 201)
  await app.close()
})

test('overrideModule().useModule() swaps a module wherever it is imported', async () => {
  @Injectable()
  class StubService { findAll () { return ['stub'] } }
  @Module({ providers: [{ provide: CatsService, useClass: StubService }], exports: [CatsService] })
  class StubCatsModule {}
  @Controller('stub')
  class StubController {
    constructor (@Inject(CatsService) private readonly cats: CatsService) {}
    @Get() all () { return this.cats.findAll() }
  }
  @Module({ imports: [CatsModule], controllers: [StubController], exports: [CatsModule] })
  class FeatureModule {}

  const moduleRef = await Test.createTestingModule({ imports: [FeatureModule] })
    .overrideModule(CatsModule).useModule(StubCatsModule)
    .compile()
  assert.deepEqual(moduleRef.get(StubController).all(), ['stub'])
  assert.throws(() => moduleRef.get(CatsController), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
  await moduleRef.close()
})

test('an e2e spec: createNestApplication, useGlobalPipes, init, then supertest and inject; instances are built once', async () => {
  reset()
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const service = moduleRef.get(CatsService)
  assert.equal(CatsRepository.built, 1)

  const app: INestApplication = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  // (The compiled lane runs this spec with ValidationPipe: under tsx, class-validator cannot be
  // required by the package unless the test file imported it first.)
  app.useGlobalPipes({ transform: (value: unknown) => value })
  await app.init()
  assert.equal(await app.init(), app)
  assert.deepEqual(events, ['init'])
  // The application serves what compile() built: state set through the module is visible over HTTP.
  assert.equal(CatsRepository.built, 1)
  assert.equal(moduleRef.get(CatsService), service)
  assert.equal(app.get(CatsService), service)
  service.create('Felix')

  await request(app.getHttpServer()).get('/cats').expect(200).expect({ data: ['Tom', 'Felix'] })
  await request(app.getHttpServer()).post('/cats').send({ name: 'Meow' }).expect(403)
  await request(app.getHttpServer()).get('/cats/abc').expect(400)
  const res = await (app as NestFastifyApplication).inject({ method: 'GET', url: '/cats/7' })
  assert.deepEqual(res.json(), { id: 7 })
  const fastify = app.getHttpAdapter().getInstance<FastifyInstance>()
  assert.equal(fastify.server, app.getHttpServer())
  await fastify.ready()

  await app.close()
  await moduleRef.close()
  assert.deepEqual(events, ['init', 'destroy'])
})

test('setGlobalPrefix, enableVersioning and useGlobalGuards become the plugin\'s prefix, versioning and globalGuards', async () => {
  @Controller('dogs')
  class DogsController {
    @Get() @Version('1') v1 () { return 'v1' }
    @Get() @Version('2') v2 () { return 'v2' }
  }
  @Module({ controllers: [DogsController] })
  class DogsModule {}
  const moduleRef = await Test.createTestingModule({ imports: [DogsModule] }).compile()
  const app = moduleRef.createNestApplication<NestFastifyApplication>()
  app.setGlobalPrefix('api').enableVersioning({ type: VersioningType.URI })
  await app.init()
  assert.equal((await app.inject('/api/v1/dogs')).body, 'v1')
  assert.equal((await app.inject('/api/v2/dogs')).body, 'v2')
  assert.equal((await app.inject('/v1/dogs')).statusCode, 404)
  assert.throws(() => app.useGlobalPipes({ transform: (v: unknown) => v }), { code: 'FDP_ERR_INVALID_OPTIONS', message: /after init\(\)/ })
  await app.close()

  const header = (await Test.createTestingModule({ imports: [DogsModule] }).compile()).createNestApplication()
  header.enableVersioning({ type: VersioningType.HEADER, header: 'X-Version' })
  header.useGlobalGuards({ canActivate: () => false })
  await header.init()
  assert.equal((await header.inject({ url: '/dogs', headers: { 'x-version': '2' } })).statusCode, 403)
  await header.close()

  const defaults = (await Test.createTestingModule({ imports: [DogsModule] }).compile()).createNestApplication()
  // enableVersioning() with no options is URI versioning, as in NestJS.
  await defaults.enableVersioning().init()
  assert.equal((await defaults.inject('/v2/dogs')).body, 'v2')
  await defaults.close()
})

test('new FastifyAdapter(app) serves the module inside an existing app; its plain routes keep answering', async () => {
  const existing = Fastify()
  existing.get('/health', async () => ({ ok: true }))
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication(new FastifyAdapter(existing))
  await app.register(async function plainPlugin (instance: FastifyInstance) { instance.get('/from-plugin', async () => 'plugin') })
  await app.init()
  assert.equal(app.getHttpAdapter().getInstance(), existing)
  assert.deepEqual((await existing.inject('/health')).json(), { ok: true })
  assert.deepEqual((await existing.inject('/cats')).json(), { data: ['Tom'] })
  assert.equal((await existing.inject('/from-plugin')).body, 'plugin')
  await app.close()
})

test('listen() initializes and listens; getUrl() gives the address', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  const server = await app.listen(0, '127.0.0.1')
  assert.equal(server, app.getHttpServer())
  const url = await app.getUrl()
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const res = await fetch(`${url}/cats`)
  assert.deepEqual(await res.json(), { data: ['Tom'] })
  await app.close()
  await assert.rejects(app.getUrl(), { code: 'FDP_ERR_INVALID_OPTIONS', message: 'app.listen() needs to be called before calling app.getUrl()' })
})

test('listen() takes NestJS\'s forms, a last callback given (error, address); getUrl() rejects before it and names the loopback for every interface', async () => {
  const application = async () => (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication()
  const before = await application()
  await assert.rejects(before.getUrl(), { message: 'app.listen() needs to be called before calling app.getUrl()' })
  await before.close()
  for (const [args, host] of [[[0, '0.0.0.0'], '127.0.0.1'], [[0, '::'], '127.0.0.1'], [[0, '::1'], '[::1]'], [[0, '127.0.0.1'], '127.0.0.1']] as const) {
    const app = await application()
    let calledBack: unknown[] | undefined
    const server = await app.listen(args[0], args[1], (...given: unknown[]) => { calledBack = given })
    const url = await app.getUrl()
    assert.match(url, new RegExp(`^http://${host.replace(/[[\]]/g, '\\$&')}:\\d+$`), `${args[1]}: ${url}`)
    assert.equal(calledBack?.[0], null)
    assert.match(String(calledBack?.[1]), /^http:\/\//)
    assert.equal(server, app.getHttpServer())
    const res = await fetch(`http://${host}:${(server.address() as { port: number }).port}/cats`)
    assert.deepEqual(await res.json(), { data: ['Tom'] })
    await app.close()
  }
  const withCallback = await application()
  await new Promise<void>((resolve, reject) => { withCallback.listen(0, (error) => error === null ? resolve() : reject(error)).catch(reject) })
  assert.match(await withCallback.getUrl(), /^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/)
  await withCallback.close()
})

test('setViewEngine() registers @fastify/view for @Render routes', async () => {
  @Controller()
  class PagesController {
    @Get() @Render('index') index () { return { title: 'Cats', items: ['Tom'] } }
  }
  @Module({ controllers: [PagesController] })
  class PagesModule {}
  const moduleRef = await Test.createTestingModule({ imports: [PagesModule] }).compile()
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  app.setViewEngine({ engine: { ejs }, templates: fileURLToPath(new URL('../fixtures/views', import.meta.url)) })
  await app.init()
  const res = await app.inject('/')
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  assert.match(res.body, /Cats/)
  await app.close()
})

test('a provider that injects FASTIFY gets the application\'s own context, not the compiled one', async () => {
  @Injectable()
  class Decorated {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
  }
  @Controller('who')
  class WhoController {
    constructor (@Inject(Decorated) private readonly decorated: Decorated) {}
    @Get() who () { return (this.decorated.fastify as unknown as { tag?: string }).tag ?? 'none' }
  }
  @Module({ controllers: [WhoController], providers: [Decorated] })
  class WhoModule {}
  const moduleRef = await Test.createTestingModule({ imports: [WhoModule] }).compile()
  const existing = Fastify()
  existing.decorate('tag', 'app')
  const app = moduleRef.createNestApplication(new FastifyAdapter(existing))
  await app.init()
  assert.equal((await app.inject('/who')).body, 'app')
  await app.close()
})

test('an application closed before init() runs the module\'s destroy hooks once and releases both instances', async () => {
  reset()
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  await app.close()
  await moduleRef.close()
  assert.deepEqual(events, ['destroy'])
  assert.equal(app.getHttpAdapter().getInstance<FastifyInstance>().server.listening, false)
})

test('bad arguments fail with FDP_ERR_INVALID_OPTIONS and say what to do', async () => {
  assert.throws(() => Test.createTestingModule(null as any), { code: 'FDP_ERR_INVALID_OPTIONS' })
  assert.throws(() => Test.createTestingModule({ imports: [AppModule] }).overrideProvider(42 as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /takes a token/ })
  assert.throws(() => Test.createTestingModule({}).overrideProvider(CatsService).useFactory({} as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /\{ factory, inject\? \}/ })
  assert.throws(() => Test.createTestingModule({}).overrideModule(CatsService as any), { code: 'FDP_ERR_INVALID_OPTIONS' })
  assert.throws(() => new FastifyAdapter('x' as any), { code: 'FDP_ERR_INVALID_OPTIONS' })

  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  class ExpressAdapter {}
  assert.throws(() => moduleRef.createNestApplication(new ExpressAdapter() as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /takes a FastifyAdapter, given/ })
  assert.throws(() => moduleRef.createNestApplication(new FastifyAdapter(), 'logger' as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /options must be an object/ })
  assert.throws(() => moduleRef.createNestApplication({ snapshot: true, logger: false } as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /"snapshot" is not supported \(logger, bufferLogs, cors and rawBody are\)/ })
  // @ts-expect-error snapshot is not an option the testing application takes: the refusal is the point
  assert.throws(() => moduleRef.createNestApplication(new FastifyAdapter(), { snapshot: true }), { code: 'FDP_ERR_INVALID_OPTIONS', message: /not supported/ })
  const app = moduleRef.createNestApplication()
  assert.throws(() => app.setGlobalPrefix('api', { exclude: [42] } as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /setGlobalPrefix\(prefix, \{ exclude \}\): exclude\[0\] is number 42; give a path such as 'health'/ })
  await app.close()
})

test('a pipe given to useGlobalPipes runs on every route, before parameter pipes', async () => {
  const seen: unknown[] = []
  const tap: PipeTransform = { transform: (value) => { seen.push(value); return value } }
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  app.useGlobalPipes(tap)
  await app.init()
  assert.deepEqual((await app.inject('/cats/3')).json(), { id: 3 })
  assert.deepEqual(seen, ['3'])
  await app.close()
})

test('useLogger() and flushLogs() are Logger.overrideLogger() and Logger.flush()', async (t) => {
  const calls: unknown[][] = []
  t.after(() => Logger.overrideLogger(true))
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  Logger.attachBuffer()
  new Logger('Boot').log('held')
  app.useLogger({ log: (...args: unknown[]) => calls.push(args), error () {}, warn () {} })
  app.flushLogs()
  moduleRef.useLogger(false)
  Logger.log('dropped')
  moduleRef.flushLogs()
  assert.deepEqual(calls, [['held', 'Boot']])
  await app.close()
})

test('an application whose init() failed still releases the compiled module\'s Fastify instance on close()', async () => {
  let closed = 0
  @Injectable()
  class Failing implements OnModuleInit {
    onModuleInit () { throw new Error('no database') }
  }
  // A module plugin runs in the compiled context and in the application's: both are closed.
  @Module({ providers: [Failing], plugins: [async (instance: FastifyInstance) => { instance.addHook('onClose', async () => { closed++ }) }] })
  class FailingModule {}
  const moduleRef = await Test.createTestingModule({ imports: [FailingModule] }).compile()
  const app = moduleRef.createNestApplication()
  await assert.rejects(app.init(), { code: 'FDP_ERR_LIFECYCLE_HOOK', message: /no database/ })
  await app.close()
  await moduleRef.close()
  assert.equal(closed, 2)
})

test('a spec of dynamic modules and APP_* providers: the application reuses what compile() built', async () => {
  let built = 0
  @Injectable()
  class Settings { constructor (@Inject('FOLDER') readonly folder: string) { built++ } }
  @Module({})
  class SettingsModule {
    static async forRootAsync (folder: string): Promise<DynamicModule> {
      return { module: SettingsModule, global: true, providers: [{ provide: 'FOLDER', useValue: folder }, Settings], exports: [Settings] }
    }
  }
  @Injectable()
  class FolderGuard implements CanActivate {
    constructor (@Inject(Settings) private readonly settings: Settings) {}
    canActivate (ctx: any) { return ctx.switchToHttp().getRequest().headers.folder === this.settings.folder }
  }
  @Controller('files')
  class FilesController { @Get() list () { return ['a.txt'] } }
  @Module({ imports: [SettingsModule.forRootAsync('./files')], controllers: [FilesController], providers: [{ provide: APP_GUARD, useClass: FolderGuard }] })
  class FilesModule {}

  const moduleRef = await Test.createTestingModule({ imports: [FilesModule] }).compile()
  assert.equal(moduleRef.get(Settings).folder, './files')
  const app = moduleRef.createNestApplication<NestFastifyApplication>()
  await app.init()
  assert.equal(app.get(Settings), moduleRef.get(Settings))
  assert.equal(built, 1)
  assert.equal((await app.inject('/files')).statusCode, 403)
  assert.deepEqual((await app.inject({ url: '/files', headers: { folder: './files' } })).json(), ['a.txt'])
  await app.close()
})

test('get(token, { strict: true }) and resolve(token, contextId, { strict: true }) look only in the test module\'s own declarations', async () => {
  @Injectable({ scope: Scope.REQUEST })
  class RequestClock { readonly at = Symbol('request') }
  const moduleRef = await Test.createTestingModule({ imports: [CatsModule], providers: [RequestClock], controllers: [] }).compile()
  // CatsService is CatsModule's: found in the whole application, not in the test module's own graph.
  assert.equal(moduleRef.get(CatsService, { strict: false }), moduleRef.get(CatsService))
  assert.throws(() => moduleRef.get(CatsService, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN', message: /RootTestModule does not declare it \(CatsModule does\)/ })
  await assert.rejects(moduleRef.resolve(CatsService, undefined, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
  assert.equal(await moduleRef.resolve(CatsService, undefined, { strict: false }), moduleRef.get(CatsService))
  // A request-scoped provider of the test module: one instance per context id, a new one without.
  const contextId = ContextIdFactory.create()
  const first = await moduleRef.resolve(RequestClock, contextId, { strict: true })
  assert.ok(first instanceof RequestClock)
  assert.equal(await moduleRef.resolve(RequestClock, contextId), first)
  assert.notEqual(await moduleRef.resolve(RequestClock), first)
  assert.throws(() => moduleRef.get(RequestClock, { strict: true }), { code: 'FDP_ERR_SCOPED_PROVIDER' })

  // The application answers the same way, from its own container.
  const app = moduleRef.createNestApplication()
  await app.init()
  assert.equal(app.get(CatsService), moduleRef.get(CatsService))
  assert.throws(() => app.get(CatsService, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
  assert.throws(() => moduleRef.get(CatsService, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN' })
  assert.ok(await app.resolve(RequestClock, ContextIdFactory.create(), { strict: true }) instanceof RequestClock)
  await app.close()

  const unit = await Test.createTestingModule({ controllers: [CatsController], providers: [CatsService, CatsRepository] }).compile()
  assert.equal(unit.get(CatsController, { strict: true }), unit.get(CatsController))
  assert.equal(unit.get(CatsService, { strict: true }).findAll()[0], 'Tom')
  assert.deepEqual(unit.get(CatsService, { each: true }), [unit.get(CatsService)])
  await unit.close()
})

test('enableShutdownHooks() listens for the signals while the application runs (every NestJS shutdown signal when none are given)', async () => {
  const count = (signal: NodeJS.Signals) => process.listenerCount(signal)
  const before = { SIGTERM: count('SIGTERM'), SIGUSR2: count('SIGUSR2'), SIGHUP: count('SIGHUP'), SIGINT: count('SIGINT') }
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  assert.equal(app.enableShutdownHooks(), app)
  await app.init()
  assert.deepEqual({ SIGTERM: count('SIGTERM'), SIGUSR2: count('SIGUSR2'), SIGHUP: count('SIGHUP'), SIGINT: count('SIGINT') },
    { SIGTERM: before.SIGTERM + 1, SIGUSR2: before.SIGUSR2 + 1, SIGHUP: before.SIGHUP + 1, SIGINT: before.SIGINT + 1 })
  await app.close()
  assert.deepEqual({ SIGTERM: count('SIGTERM'), SIGUSR2: count('SIGUSR2'), SIGHUP: count('SIGHUP'), SIGINT: count('SIGINT') }, before)

  const listed = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication()
  listed.enableShutdownHooks([' sigusr2 '])
  await listed.init()
  assert.equal(count('SIGUSR2'), before.SIGUSR2 + 1)
  assert.equal(count('SIGTERM'), before.SIGTERM)
  await listed.close()
  assert.equal(count('SIGUSR2'), before.SIGUSR2)

  const bad = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication()
  assert.throws(() => bad.enableShutdownHooks(['SIGKILL']), { code: 'FDP_ERR_INVALID_OPTIONS', message: /^enableShutdownHooks\(signals\): signals\[0\] must be the name of a signal a process can catch/ })
  assert.throws(() => bad.enableShutdownHooks('SIGTERM' as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /must be an array/ })
  await bad.init()
  assert.throws(() => bad.enableShutdownHooks(), { code: 'FDP_ERR_INVALID_OPTIONS', message: /after init\(\)/ })
  await bad.close()
})

test('enableCors() registers @fastify/cors with its options for every route of the application', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  assert.equal(app.enableCors({ origin: 'https://cats.example' }), app)
  await app.init()
  const preflight = await app.inject({ method: 'OPTIONS', url: '/cats', headers: { origin: 'https://cats.example', 'access-control-request-method': 'POST' } })
  assert.equal(preflight.statusCode, 204)
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://cats.example')
  const res = await app.inject({ url: '/cats', headers: { origin: 'https://cats.example' } })
  assert.deepEqual(res.json(), { data: ['Tom'] })
  assert.equal(res.headers['access-control-allow-origin'], 'https://cats.example')
  assert.throws(() => app.enableCors(), { code: 'FDP_ERR_INVALID_OPTIONS', message: /after init\(\)/ })
  await app.close()

  // Without it, no CORS header and no preflight route.
  const plain = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication<NestFastifyApplication>()
  assert.throws(() => plain.enableCors('*' as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /@fastify\/cors's options/ })
  await plain.init()
  assert.equal((await plain.inject({ url: '/cats', headers: { origin: 'https://cats.example' } })).headers['access-control-allow-origin'], undefined)
  assert.equal((await plain.inject({ method: 'OPTIONS', url: '/cats' })).statusCode, 404)
  await plain.close()

  assert.throws(() => loadCors('@fastify/no-such-cors'), { code: 'FDP_ERR_MISSING_PEER', message: /Install it: npm install @fastify\/cors/ })
})

test('enableCors() takes what NestJS\'s Fastify adapter takes: nothing, a function of the instance, a delegate (request, callback), and cors in the application options', async () => {
  const app = async (setup: (app: NestFastifyApplication) => unknown, options?: object) => {
    const created = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication<NestFastifyApplication>(options)
    await setup(created)
    await created.init()
    return created
  }
  const origin = async (created: NestFastifyApplication, from: string) => (await created.inject({ url: '/cats', headers: { origin: from } })).headers['access-control-allow-origin']

  // No options: @fastify/cors's defaults, any origin.
  const open = await app((created) => created.enableCors())
  assert.equal(await origin(open, 'https://any.example'), '*')
  await open.close()

  // A function of fewer than two parameters is called with the Fastify instance for the options.
  let given: unknown
  const factory = await app((created) => created.enableCors((instance: FastifyInstance) => { given = instance; return { origin: 'https://cats.example' } }))
  assert.equal(typeof (given as FastifyInstance).register, 'function')
  assert.equal(await origin(factory, 'https://dogs.example'), 'https://cats.example')
  await factory.close()

  // A delegate (request, callback) decides per request, preflights included.
  const delegate = (request: { headers: Record<string, string> }, callback: (error: Error | null, options?: Record<string, unknown>) => void) => {
    callback(null, { origin: request.headers.origin === 'https://cats.example' })
  }
  for (const created of [await app((created) => created.enableCors(delegate)), await app(() => {}, { cors: delegate })]) {
    assert.equal(await origin(created, 'https://cats.example'), 'https://cats.example')
    assert.equal(await origin(created, 'https://dogs.example'), undefined)
    const preflight = await created.inject({ method: 'OPTIONS', url: '/cats', headers: { origin: 'https://cats.example', 'access-control-request-method': 'POST' } })
    assert.equal(preflight.statusCode, 204)
    await created.close()
  }
})

test('createNestApplication(options) and (adapter, options) take NestJS\'s logger, bufferLogs and cors', async (t) => {
  t.after(() => Logger.overrideLogger(true))
  const calls: unknown[][] = []
  const service = { log: (...args: unknown[]) => calls.push(args), error () {}, warn () {} }

  // logger: the LoggerService every Logger line goes to from then on.
  const logged = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication({ logger: service })
  new Logger('Cats').log('given')
  assert.deepEqual(calls, [['given', 'Cats']])
  await logged.close()

  // bufferLogs: lines wait for useLogger(), which flushes them to the logger it is given.
  calls.length = 0
  Logger.overrideLogger(true)
  const buffered = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication(new FastifyAdapter(), { bufferLogs: true })
  new Logger('Boot').log('held')
  assert.deepEqual(calls, [])
  buffered.useLogger(service)
  assert.deepEqual(calls, [['held', 'Boot']])
  await buffered.close()

  // cors: true is enableCors() with @fastify/cors's defaults (any origin).
  const open = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication<NestFastifyApplication>({ cors: true })
  await open.init()
  assert.equal((await open.inject({ url: '/cats', headers: { origin: 'https://any.example' } })).headers['access-control-allow-origin'], '*')
  await open.close()
  const closed = (await Test.createTestingModule({ imports: [AppModule] }).compile()).createNestApplication<NestFastifyApplication>({ cors: false, logger: ['error'] })
  await closed.init()
  assert.equal((await closed.inject({ url: '/cats', headers: { origin: 'https://any.example' } })).headers['access-control-allow-origin'], undefined)
  await closed.close()
})

test('the testing module and its application: get() and resolve() with { each: true }, registerRequestByContextId()', async () => {
  @Injectable({ scope: Scope.REQUEST })
  class Handler { constructor (@Inject(REQUEST) readonly request: unknown) {} }
  @Module({ providers: [{ provide: 'HANDLER', useValue: 'inner' }], exports: ['HANDLER'] })
  class InnerModule {}
  @Module({ imports: [InnerModule], providers: [{ provide: 'HANDLER', useValue: 'outer' }, Handler] })
  class OuterModule {}
  const moduleRef = await Test.createTestingModule({ imports: [OuterModule] }).compile()
  assert.deepEqual([...moduleRef.get<string>('HANDLER', { each: true })].sort(), ['inner', 'outer'])
  assert.deepEqual([...await moduleRef.resolve<string>('HANDLER', undefined, { each: true })].sort(), ['inner', 'outer'])
  const contextId = ContextIdFactory.create()
  moduleRef.registerRequestByContextId({ id: 'fake' }, contextId)
  assert.deepEqual((await moduleRef.resolve(Handler, contextId)).request, { id: 'fake' })
  const app = moduleRef.createNestApplication()
  await app.init()
  assert.deepEqual([...app.get<string>('HANDLER', { each: true })].sort(), ['inner', 'outer'])
  const other = ContextIdFactory.create()
  app.registerRequestByContextId({ id: 'app' }, other)
  assert.deepEqual((await app.resolve(Handler, other)).request, { id: 'app' })
  await app.close()
})

test('useMocker() stands in for the dependencies no module provides, once per place of injection; a falsy mock leaves the error', async () => {
  class Missing { value () { return 'real' } }
  @Injectable()
  class First { constructor (@Inject(Missing) readonly missing: { value: () => string }, @Inject('TOKEN') readonly token: string) {} }
  @Injectable()
  class Second { constructor (@Inject(Missing) readonly missing: { value: () => string }) {} }
  @Module({ providers: [First, Second] })
  class AppModule {}
  const asked: unknown[] = []
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .useMocker((token) => {
      asked.push(token)
      return token === 'TOKEN' ? 'mocked token' : { value: () => 'mocked' }
    })
    .compile()
  assert.deepEqual(asked, [Missing, 'TOKEN', Missing])
  assert.equal(moduleRef.get(First).missing.value(), 'mocked')
  assert.equal(moduleRef.get(First).token, 'mocked token')
  assert.notEqual(moduleRef.get(First).missing, moduleRef.get(Second).missing, 'a mock per place of injection')
  await moduleRef.close()

  await assert.rejects(Test.createTestingModule({ imports: [AppModule] }).useMocker(() => undefined).compile(), { code: 'FDP_ERR_UNKNOWN_DEPENDENCY' })
  assert.throws(() => Test.createTestingModule({}).useMocker('no' as any), { code: 'FDP_ERR_INVALID_OPTIONS' })
})

test('overrideModule() takes a dynamic module (or a Promise of one), matched by identity, and useModule() a dynamic module', async () => {
  @Injectable() class Settings { constructor (@Inject('NAME') readonly name: string) {} }
  @Module({})
  class ConfigLikeModule {
    static forRoot (name: string): DynamicModule {
      return { module: ConfigLikeModule, providers: [{ provide: 'NAME', useValue: name }, Settings], exports: [Settings] }
    }
  }
  const imported = ConfigLikeModule.forRoot('real')
  @Module({ imports: [imported] })
  class AppModule {}
  const replaced = await Test.createTestingModule({ imports: [AppModule] })
    .overrideModule(imported).useModule(ConfigLikeModule.forRoot('test'))
    .compile()
  assert.equal(replaced.get(Settings).name, 'test')
  await replaced.close()
  // Another call's object is another module: it replaces nothing, as in NestJS.
  const untouched = await Test.createTestingModule({ imports: [AppModule] })
    .overrideModule(ConfigLikeModule.forRoot('real')).useModule(ConfigLikeModule.forRoot('test'))
    .compile()
  assert.equal(untouched.get(Settings).name, 'real')
  await untouched.close()
  const promised = Promise.resolve(ConfigLikeModule.forRoot('later'))
  @Module({ imports: [promised] })
  class AsyncModule {}
  const fromPromise = await Test.createTestingModule({ imports: [AsyncModule] })
    .overrideModule(promised).useModule(Promise.resolve(ConfigLikeModule.forRoot('swapped')))
    .compile()
  assert.equal(fromPromise.get(Settings).name, 'swapped')
  await fromPromise.close()
})

test('a second createNestApplication() on one testing module is a new application over the same instances', async () => {
  let inits = 0
  @Injectable()
  class Counter implements OnModuleInit {
    hits = 0
    onModuleInit () { inits++ }
  }
  @Controller('count')
  class CountController {
    constructor (@Inject(Counter) readonly counter: Counter) {}
    @Get() get () { return { hits: ++this.counter.hits } }
  }
  @Module({ controllers: [CountController], providers: [Counter] })
  class CountModule {}
  const moduleRef = await Test.createTestingModule({ imports: [CountModule] }).compile()
  const first = moduleRef.createNestApplication()
  await first.init()
  const second = moduleRef.createNestApplication()
  await second.init()
  assert.notEqual(first.getHttpAdapter().getInstance(), second.getHttpAdapter().getInstance())
  assert.deepEqual((await first.inject('/count')).json(), { hits: 1 })
  assert.deepEqual((await second.inject('/count')).json(), { hits: 2 }, 'the same Counter instance')
  assert.equal(first.get(Counter), second.get(Counter))
  assert.equal(inits, 2, 'each application runs the hooks, as NestJS does')
  await moduleRef.close()
  assert.equal(first.getHttpServer().listening, false)
  await assert.rejects(second.inject('/count'))
})
