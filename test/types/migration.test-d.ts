// Type tests for code written for NestJS: it compiles unchanged once its import specifiers change.
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import {
  Injectable, Module, FastifyAdapter, ValidationPipe, VersioningType, Logger, RequestMethod, ContextIdFactory,
  type LoggerService, type NestMiddleware, type NestModule, type MiddlewareConsumer, type CanActivate, type ExecutionContext, type Request, type INestApplication, type NestFastifyApplication, type NestApplicationOptions
} from '../../plugin/index.js'
import { Test, type TestingModule } from '../../plugin/testing.js'

// As in NestJS, the request and the response are `any` unless told otherwise.
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate (context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest()
    const [scheme, token] = request.headers.authorization.split(' ')
    context.switchToHttp().getResponse().header('x-checked', 'yes')
    return scheme === 'Bearer' && token === request.user.roles[0]
  }
}

export function typedRequest (context: ExecutionContext): string {
  const request = context.switchToHttp().getRequest<Request>()
  // @ts-expect-error: told it is a Fastify request, `user` may be undefined
  return request.user.name
}

// A NestJS e2e spec and its bootstrap names, after their import specifiers change.
@Injectable()
class CatsService { findAll (): string[] { return [] } }

@Module({ providers: [CatsService] })
class CatsModule {}

export async function e2eSpec (): Promise<void> {
  const moduleRef: TestingModule = await Test.createTestingModule({ imports: [CatsModule] })
    .overrideProvider(CatsService).useValue({ findAll: () => ['test cat'] })
    .overrideGuard(ApiKeyGuard).useClass(ApiKeyGuard)
    .compile()
  const cats: string[] = moduleRef.get<CatsService>(CatsService).findAll()
  void cats
  const app: INestApplication = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter({ logger: false }))
  app.useGlobalPipes(new ValidationPipe())
  app.setGlobalPrefix('api', { exclude: ['health', { path: 'cats/:id', method: RequestMethod.GET }] })
  app.enableCors((req: { headers: Record<string, string> }, callback: (error: Error | null, options?: Record<string, unknown>) => void) => callback(null, { origin: true }))
  // @ts-expect-error: enableCors() takes options, a function of the instance or a delegate
  app.enableCors('*')
  // @ts-expect-error: an exclusion names its method with RequestMethod
  app.setGlobalPrefix('api', { exclude: [{ path: 'health', method: 'GET' }] })
  app.enableVersioning({ type: VersioningType.HEADER, header: 'X-Version', defaultVersion: '1' })
  await app.init()
  await app.getHttpAdapter().getInstance<FastifyInstance>().ready()
  await request(app.getHttpServer()).get('/cats').expect(200)
  const fastifyApp = moduleRef.createNestApplication<NestFastifyApplication>()
  const res = await fastifyApp.inject({ method: 'GET', url: '/cats' })
  void res.json()
  await fastifyApp.listen({ port: 0 })
  await fastifyApp.listen(3000, '0.0.0.0')
  const own: CatsService = moduleRef.get(CatsService, { strict: true })
  const scoped: CatsService = await moduleRef.resolve(CatsService, ContextIdFactory.create(), { strict: true })
  const fromApp: CatsService = app.get(CatsService, { strict: false })
  void [own, scoped, fromApp, await app.resolve(CatsService), await app.resolve(CatsService, ContextIdFactory.create())]
  // @ts-expect-error: strict is a boolean
  moduleRef.get(CatsService, { strict: 'yes' })
  // @ts-expect-error: the second argument of resolve() is a context id
  await moduleRef.resolve(CatsService, { strict: true })
  // A bootstrap's calls, as main.ts makes them.
  const main = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
  main.enableShutdownHooks().enableShutdownHooks(['SIGTERM', 'SIGINT']).enableCors().enableCors({ origin: ['https://cats.example'], credentials: true })
  main.useLogger(['error', 'warn'])
  const url: string = await main.getUrl()
  void url
  // NestJS's application options, with or without an adapter.
  const quiet: NestApplicationOptions = { logger: false, bufferLogs: true, cors: { origin: true } }
  moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), quiet).enableCors()
  moduleRef.createNestApplication({ logger: ['error', 'warn'], cors: true })
  // NestJS's raw bodies and body parsers.
  const raw = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { rawBody: true })
  raw.useBodyParser('application/json', { bodyLimit: 1024 }).useBodyParser(['text/csv'], {}, async (request, body) => body.toString('utf8'))
  raw.useBodyParser(/^application\/vnd\./, undefined, (request, body, done) => done(null, body))
  // @ts-expect-error: bodyLimit is a number of bytes
  raw.useBodyParser('application/json', { bodyLimit: '1mb' })
  // @ts-expect-error: snapshot is not an application option here
  moduleRef.createNestApplication(new FastifyAdapter(), { snapshot: true })
  // @ts-expect-error: logger takes a LoggerService, levels or false
  moduleRef.createNestApplication({ logger: 'verbose' })
  // @ts-expect-error: signals are listed in an array
  main.enableShutdownHooks('SIGTERM')
  // @ts-expect-error: the header type needs no prefix, it names a header
  app.enableVersioning({ type: VersioningType.HEADER, prefix: 'v' })
  // @ts-expect-error: overrides replace tokens, not numbers
  Test.createTestingModule({}).overrideProvider(42)
  await app.close()
}

// NestJS's Logger and middleware declarations.
@Injectable()
export class LoggingMiddleware implements NestMiddleware {
  private readonly logger = new Logger(LoggingMiddleware.name)
  use (req: { method: string, url: string }, res: unknown, next: () => void): void {
    this.logger.log(`${req.method} ${req.url}`)
    this.logger.error('failed', new Error('x').stack, 'OtherContext')
    Logger.warn('static', 'Context')
    next()
  }
}

@Module({ providers: [CatsService] })
export class LoggedModule implements NestModule {
  configure (consumer: MiddlewareConsumer): void {
    consumer
      .apply(LoggingMiddleware, (req: unknown, res: unknown, next: () => void) => next())
      .exclude({ path: 'cats', method: RequestMethod.POST }, 'health')
      .forRoutes('cats', { path: 'dogs', method: RequestMethod.GET })
    // @ts-expect-error: a route's method is a RequestMethod
    consumer.apply(LoggingMiddleware).forRoutes({ path: 'x', method: 'GET' })
  }
}

export const service: LoggerService = new Logger('Typed', { timestamp: true })
Logger.overrideLogger(['error', 'warn'])
// @ts-expect-error: not a log level
Logger.overrideLogger(['loud'])
