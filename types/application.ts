// The application object of NestJS's API (`INestApplication`), as the testing entry's
// `createNestApplication()` gives it, so NestJS specs and bootstrap code type-check unchanged.
import type { FastifyInstance, FastifyRequest, FastifyListenOptions, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyRegisterOptions } from 'fastify'
import type { LoggerService, LogLevel } from './logger.js'
import type { WebSocketAdapter } from './websockets.js'
import type {
  CanActivate, GlobalPrefixOptions, ContextId, EnhancerEntry, ExceptionFilter, InjectionToken, InterceptorLike, ModuleRefGetOptions, NestInterceptor, PipeTransform, VersioningOptions
} from './index.js'

/**
 * What `enableCors()` takes, as NestJS's Fastify adapter does: @fastify/cors's options, a function
 * of the Fastify instance that gives them, or @fastify/cors's delegate `(request, callback)`.
 */
type CorsOptions =
  | Record<string, unknown>
  | ((instance: FastifyInstance) => unknown)
  | ((request: any, callback: (error: Error | null, options?: Record<string, unknown>) => void) => void)

/** A Fastify plugin as `register()` takes it: a function, or an ES module of one. */
export type FastifyPlugin<Options extends FastifyPluginOptions = any> =
  | FastifyPluginCallback<Options>
  | FastifyPluginAsync<Options>
  | Promise<{ default: FastifyPluginCallback<Options> | FastifyPluginAsync<Options> }>

/**
 * The options of `createNestApplication(adapter?, options)` that apply here, as NestJS names them;
 * any other fails with a message (Fastify's server options go to `new FastifyAdapter(options)`).
 */
export interface NestApplicationOptions {
  /** `Logger.overrideLogger()`: a LoggerService, the levels to keep, or false for none. */
  logger?: LoggerService | LogLevel[] | false
  /** Holds `Logger` lines back until `useLogger()` or `flushLogs()`. */
  bufferLogs?: boolean
  /** `enableCors()`: true (its defaults), or what enableCors() takes. */
  cors?: boolean | CorsOptions
  /** Keep the bytes of JSON and form bodies as `request.rawBody` (a Buffer), as NestJS does. */
  rawBody?: boolean
}

/** `useBodyParser(type, options)`: Fastify's content-type parser options, without `parseAs`. */
export interface BodyParserOptions {
  /** The largest body accepted, in bytes; Fastify's 413 above it. */
  bodyLimit?: number
}

/** A body parser given to `useBodyParser()`, as Fastify takes them: calling `done`, or async (resolving to the body). */
export type BodyParser = (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => unknown

/** The part of NestJS's HTTP adapter that applications and specs use. */
export interface HttpAdapter<TInstance = FastifyInstance> {
  getInstance<T = TInstance>(): T
  getHttpServer<T = any>(): T
  getType(): string
}

export interface INestApplicationContext {
  /** A provider or controller instance by token (singletons); `{ strict: true }`: only those the root module declares; `{ each: true }`: every one under the token. */
  get<T = any>(token: InjectionToken<T>, options: ModuleRefGetOptions & { each: true }): T[]
  get<T = any>(token: InjectionToken<T>, options?: ModuleRefGetOptions): T
  /** A request-scoped or transient provider, built for `contextId` (a fresh context without it). */
  resolve<T = any>(token: InjectionToken<T>, contextId: ContextId | undefined, options: ModuleRefGetOptions & { each: true }): Promise<T[]>
  resolve<T = any>(token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T>
  /** Makes `request` what REQUEST injects into what is resolved with `contextId`. */
  registerRequestByContextId<T = any>(request: T, contextId: ContextId): void
  /** Runs every `onModuleInit`; resolves to the context itself. */
  init(): Promise<this>
  /** Runs every `onModuleDestroy` and releases the Fastify instance. */
  close(): Promise<void>
  /** `Logger.overrideLogger()`: a LoggerService, the levels to keep, or false for none. */
  useLogger(logger: LoggerService | LogLevel[] | false): void
  /** `Logger.flush()`: writes the lines held back by `Logger.attachBuffer()`. */
  flushLogs(): void
}

export interface INestApplication extends INestApplicationContext {
  /** Registers the application on its Fastify instance and makes it ready. */
  init(): Promise<this>
  /** `init()`, then listens; resolves to Node's HTTP server. A last callback gets `(error, address)`. */
  listen(port: number | string, callback?: (error: Error | null, address: string) => void): Promise<any>
  listen(port: number | string, hostname: string, callback?: (error: Error | null, address: string) => void): Promise<any>
  /** The address the application listens on, such as `http://127.0.0.1:3000`. */
  getUrl(): Promise<string>
  /** Node's HTTP server (what supertest's `request()` takes). */
  getHttpServer(): any
  getHttpAdapter(): HttpAdapter
  useGlobalGuards(...guards: Array<EnhancerEntry<CanActivate>>): this
  useGlobalPipes(...pipes: Array<EnhancerEntry<PipeTransform>>): this
  useGlobalInterceptors(...interceptors: Array<EnhancerEntry<NestInterceptor>>): this
  useGlobalInterceptors(...interceptors: Array<EnhancerEntry<NestInterceptor | InterceptorLike>>): this
  useGlobalFilters(...filters: Array<EnhancerEntry<ExceptionFilter>>): this
  /** The adapter serving the WebSocket gateways: NestJS's `WsAdapter` or `IoAdapter` (given the application or its server), or `FastifyWsAdapter`. */
  useWebSocketAdapter(adapter: WebSocketAdapter): this
  /** Versioning (`{ type: VersioningType.URI }` when no options are given, as in NestJS). */
  enableVersioning(options?: VersioningOptions): this
  setGlobalPrefix(prefix: string, options?: GlobalPrefixOptions): this
  /**
   * The plugin's `shutdownSignals` option: on one of `signals` (NestJS's whole `ShutdownSignal`
   * list when none are given), `close()` runs the shutdown hooks with the signal's name.
   */
  enableShutdownHooks(signals?: Array<NodeJS.Signals | (string & Record<never, never>)>): this
  /** Registers @fastify/cors (an optional peer dependency) with its options, before the application's routes. */
  enableCors(options?: CorsOptions): this
}

/** The Fastify flavour of the application, as `@nestjs/platform-fastify` names it. */
export interface NestFastifyApplication<TInstance extends FastifyInstance = FastifyInstance> extends INestApplication {
  getHttpAdapter(): HttpAdapter<TInstance>
  listen(options: FastifyListenOptions, callback?: (error: Error | null, address: string) => void): Promise<any>
  listen(options?: FastifyListenOptions): Promise<any>
  listen(callback?: (error: Error | null, address: string) => void): Promise<any>
  listen(port: number | string, callback?: (error: Error | null, address: string) => void): Promise<any>
  listen(port: number | string, hostname: string, callback?: (error: Error | null, address: string) => void): Promise<any>
  listen(port: number | string, hostname: string, backlog: number, callback?: (error: Error | null, address: string) => void): Promise<any>
  /** Fastify's `inject()`, on the application once it is initialized. */
  inject: FastifyInstance['inject']
  /** Registers a Fastify plugin on the application's instance (before `init()`). */
  register<Options extends FastifyPluginOptions = any>(plugin: FastifyPlugin<Options>, options?: FastifyRegisterOptions<Options>): Promise<this>
  /** Options for @fastify/view (`{ engine: { ejs }, templates }`), for `@Render` routes. */
  setViewEngine(options: Record<string, unknown>): this
  /** A parser for `type` with its own `bodyLimit` (and `request.rawBody` with `rawBody: true`). */
  useBodyParser(type: string | string[] | RegExp, options?: BodyParserOptions, parser?: BodyParser): this
}
