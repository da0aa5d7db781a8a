// Imports the package by its own name, as users do: resolved through package.json "exports"
// to the built dist/ (run `npm run build` first; `npm test` does).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import request from 'supertest'
import {
  Module, Controller, Get, Injectable, Param, ParseIntPipe, ValidationPipe, FastifyAdapter, Logger,
  type INestApplication, type NestFastifyApplication
} from 'fastify-decorator-plugin'
import { createTestApp, Test, type TestingModule } from 'fastify-decorator-plugin/testing'

@Injectable()
class Greeter { greet () { return 'hello' } }

@Controller('greet')
class GreetController {
  constructor (private readonly greeter: Greeter) {}
  @Get() get () { return this.greeter.greet() }
}

@Module({ controllers: [GreetController], providers: [Greeter] })
class AppModule {}

test('fastify-decorator-plugin/testing resolves through the package exports to the built entry point', () => {
  const entry = import.meta.resolve('fastify-decorator-plugin/testing')
  assert.match(entry, /\/dist\/wrapper\/testing\.js$/)
  assert.match(import.meta.resolve('fastify-decorator-plugin'), /\/dist\/wrapper\/index\.js$/)
  // The CommonJS view of the same exports map points at the CommonJS build of the same entry, which the wrapper loads.
  const require = createRequire(import.meta.url)
  assert.equal(require.resolve('fastify-decorator-plugin/testing'), new URL(entry).pathname.replace('/dist/wrapper/', '/dist/cjs/plugin/'))
  assert.equal(createTestApp, require('fastify-decorator-plugin/testing').createTestApp)
})

test('createTestApp from the package entry point injects by type and applies overrides', async (t) => {
  const app = await createTestApp(AppModule, {}, t)
  assert.equal((await app.inject('/greet')).body, 'hello')
  const faked = await createTestApp(AppModule, { overrides: [{ provide: Greeter, useValue: { greet: () => 'fake' } }] }, t)
  const res = await faked.inject('/greet')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'fake')
})

// A NestJS unit spec and e2e spec, as written for NestJS, with their import specifiers changed:
// injection by type (decorator metadata), Test.createTestingModule, supertest on getHttpServer().
@Injectable()
class CatsService {
  private readonly cats: string[] = []
  create (name: string) { this.cats.push(name) }
  findAll () { return this.cats }
}

@Controller('cats')
class CatsController {
  constructor (private readonly catsService: CatsService) {}
  @Get() findAll () { return this.catsService.findAll() }
  @Get(':id') findOne (@Param('id', new ParseIntPipe()) id: number) { return { id } }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class CatsModule {}

test('a NestJS unit spec: compile(), then get() the controller and the service it was built with', async () => {
  const moduleRef: TestingModule = await Test.createTestingModule({
    controllers: [CatsController],
    providers: [CatsService]
  }).compile()
  const catsService = moduleRef.get<CatsService>(CatsService)
  const catsController = moduleRef.get<CatsController>(CatsController)
  catsService.create('Tom')
  assert.deepEqual(catsController.findAll(), ['Tom'])
  await moduleRef.close()
})

test('a NestJS e2e spec: overrideProvider, createNestApplication(new FastifyAdapter()), supertest', async () => {
  const catsService = { findAll: () => ['test cat'] }
  const moduleRef = await Test.createTestingModule({ imports: [CatsModule] })
    .overrideProvider(CatsService)
    .useValue(catsService)
    .compile()
  const app: INestApplication = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  app.useGlobalPipes(new ValidationPipe())
  await app.init()
  await app.getHttpAdapter().getInstance().ready()
  await request(app.getHttpServer()).get('/cats').expect(200).expect(['test cat'])
  await request(app.getHttpServer()).get('/cats/abc').expect(400)
  await app.close()
})

test('the built testing entry: get(token, { strict: true }) looks in the test module only; enableCors() loads @fastify/cors from the package', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [CatsModule], providers: [Greeter] }).compile()
  assert.equal(moduleRef.get(Greeter, { strict: true }).greet(), 'hello')
  assert.throws(() => moduleRef.get(CatsService, { strict: true }), { code: 'FDP_ERR_UNKNOWN_TOKEN', message: /CatsModule does/ })
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  app.enableCors({ origin: 'https://cats.example' }).enableShutdownHooks(['SIGUSR2'])
  const listeners = process.listenerCount('SIGUSR2')
  await app.init()
  assert.equal(process.listenerCount('SIGUSR2'), listeners + 1)
  const res = await app.inject({ url: '/cats', headers: { origin: 'https://cats.example' } })
  assert.equal(res.headers['access-control-allow-origin'], 'https://cats.example')
  await app.close()
  assert.equal(process.listenerCount('SIGUSR2'), listeners)
})

test('the built testing entry: createNestApplication(options) takes bufferLogs and cors', async (t) => {
  t.after(() => Logger.overrideLogger(true))
  const lines: unknown[][] = []
  const app = (await Test.createTestingModule({ imports: [CatsModule] }).compile()).createNestApplication<NestFastifyApplication>({ bufferLogs: true, cors: true })
  new Logger('Boot').log('held')
  app.useLogger({ log: (...args: unknown[]) => lines.push(args), error () {}, warn () {} })
  assert.deepEqual(lines, [['held', 'Boot']])
  await app.init()
  assert.equal((await app.inject({ url: '/cats', headers: { origin: 'https://cats.example' } })).headers['access-control-allow-origin'], '*')
  await app.close()
})
