import { registerRequest } from '../decorators/context-id.js'
import type { FastifyInstance, FastifyListenOptions, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyRegisterOptions } from 'fastify'
import type {
  CanActivate, Container as PublicContainer, ContextId, DecoratorPluginOptions, EnhancerEntry, ExceptionFilter, InjectionToken,
  GlobalPrefixOptions, InterceptorLike, ModuleRefGetOptions, NestInterceptor, PipeTransform, VersioningOptions
} from '../../types/index.js'
import type { BodyParser, BodyParserOptions, FastifyPlugin, NestApplicationOptions, NestFastifyApplication } from '../../types/application.js'
import type { LoggerService, LogLevel } from '../../types/logger.js'
import type { WebSocketAdapter } from '../../types/websockets.js'
import { decoratorPlugin } from '../plugin.js'
import type { FastifyAdapter } from '../common/fastify-adapter.js'
import { Logger } from '../extras/logger.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { shutdownSignalsOf } from '../extras/shutdown-signals.js'
import { getIn, resolveIn } from './lookup.js'
import { loadCors } from './cors.js'
import { addBodyParser, takesType, urlencoded } from '../routing/raw-body.js'
import { globalPrefix } from '../routing/global-prefix.js'

/** What an application needs from the compiled module it serves. */
export interface ApplicationSource {
  /** The plugin options of the module's graph (root module, overrides, instances to reuse). */
  pluginOptions (): DecoratorPluginOptions
  /** The application is ready: `get()` now answers from its container. */
  started (container: PublicContainer): Promise<void>
  /** The container `get()` answers from. */
  current (): PublicContainer
  /** The application is closed without having started: the module runs its destroy hooks. */
  abandon (): Promise<void>
  /** The application failed to start: the module releases its instance, running no hook. */
  release (): Promise<void>
}

type Options = Omit<DecoratorPluginOptions, 'module' | 'overrides'> & {
  globalGuards: Array<EnhancerEntry<CanActivate>>
  globalPipes: Array<EnhancerEntry<PipeTransform>>
  globalInterceptors: Array<EnhancerEntry<NestInterceptor>>
  globalFilters: Array<EnhancerEntry<ExceptionFilter>>
}

type CorsOptions = NonNullable<Parameters<NestFastifyApplication['enableCors']>[0]>

/**
 * The options register() is given for @fastify/cors, as NestJS's adapter reads enableCors(): a
 * function taking fewer than two parameters is called with the instance for them; one taking two
 * is @fastify/cors's delegate, given as a function returning it (register() would call it).
 */
function corsOptions (options: CorsOptions, instance: FastifyInstance): Record<string, unknown> | (() => unknown) {
  const resolved = typeof options === 'function' && options.length < 2 ? (options as (instance: FastifyInstance) => unknown)(instance) : options
  return typeof resolved === 'function' ? () => resolved : resolved as Record<string, unknown>
}

/** What `listen()` calls back with, as Fastify's own listen() does. */
type ListenCallback = (error: Error | null, address: string) => void

// What enableShutdownHooks() with no signals listens for: NestJS's ShutdownSignal values.
const everyShutdownSignal = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGSEGV', 'SIGUSR2', 'SIGTERM']

/**
 * NestJS's application object over the plugin: what it is told before `init()` becomes plugin
 * options (`useGlobalPipes` -> `globalPipes`, `setGlobalPrefix` -> `prefix`, `enableVersioning`
 * -> `versioning`, `setViewEngine` -> `view`), and `init()` registers the plugin on the adapter's
 * Fastify instance and makes it ready.
 */
export class TestingApplication implements NestFastifyApplication {
  readonly #source: ApplicationSource
  readonly #adapter: FastifyAdapter
  readonly #fastify: FastifyInstance
  readonly #options: Options = { globalGuards: [], globalPipes: [], globalInterceptors: [], globalFilters: [] }
  #flushOnUseLogger = false
  #cors: { plugin: FastifyPluginCallback<any>, options: CorsOptions } | undefined
  readonly #rawBody: boolean
  readonly #bodyParsers: Array<{ type: string | RegExp, bodyLimit?: number, parser?: BodyParser }> = []
  #starting: Promise<void> | undefined
  #started = false
  #closing: Promise<void> | undefined

  /** `options`: NestJS's application options that apply here (`logger`, `bufferLogs`, `cors`). */
  constructor (source: ApplicationSource, adapter: FastifyAdapter, options: NestApplicationOptions = {}) {
    this.#source = source
    this.#adapter = adapter
    this.#fastify = adapter.getInstance()
    if (options.cors !== undefined && options.cors !== false) this.enableCors(options.cors === true ? {} : options.cors)
    this.#rawBody = options.rawBody === true
    if (options.logger !== undefined) Logger.overrideLogger(options.logger)
    // Lines are held back until useLogger() or flushLogs(), as NestJS does.
    if (options.bufferLogs === true) {
      Logger.attachBuffer()
      this.#flushOnUseLogger = true
    }
  }

  /** Registers the plugin with what the application was told, and waits for `ready()`. */
  async init (): Promise<this> {
    await (this.#starting ??= this.#start())
    return this
  }

  async #start (): Promise<void> {
    // Before the plugin, so that its onRequest hook answers preflights for every route.
    if (this.#cors) await this.#fastify.register(this.#cors.plugin, corsOptions(this.#cors.options, this.#fastify))
    this.#addBodyParsers()
    await this.#fastify.register(decoratorPlugin, { ...this.#source.pluginOptions(), ...this.#options })
    await this.#fastify.ready()
    this.#started = true
    await this.#source.started(this.#fastify.container)
  }

  listen (options: FastifyListenOptions, callback?: ListenCallback): Promise<any>
  listen (options?: FastifyListenOptions): Promise<any>
  listen (callback?: ListenCallback): Promise<any>
  listen (port: number | string, callback?: ListenCallback): Promise<any>
  listen (port: number | string, hostname: string, callback?: ListenCallback): Promise<any>
  listen (port: number | string, hostname: string, backlog: number, callback?: ListenCallback): Promise<any>
  // NestJS's forms: a port (then a host and a backlog) or Fastify's options, and a last callback
  // given what Fastify's listen() gives its own, (error, address).
  async listen (...args: unknown[]): Promise<any> {
    const callback = typeof args[args.length - 1] === 'function' ? args.pop() as ListenCallback : undefined
    const [first, hostname, backlog] = args
    const options: FastifyListenOptions = typeof first === 'object' && first !== null
      ? first as FastifyListenOptions
      : { port: first === undefined ? 0 : Number(first), host: hostname as string | undefined, backlog: backlog as number | undefined }
    try {
      await this.init()
      const address = await this.#fastify.listen(options)
      callback?.(null, address)
    } catch (error) {
      if (callback === undefined) throw error
      callback(error as Error, '')
      throw error
    }
    return this.#fastify.server
  }

  async getUrl (): Promise<string> {
    const address = this.#fastify.server.listening ? this.#fastify.server.address() : null
    if (address === null) throw new ERR_INVALID_OPTIONS('app.listen() needs to be called before calling app.getUrl()')
    if (typeof address === 'string') return address
    // Every interface: the loopback address reaches it, as NestJS answers.
    const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address
    return `http://${host}:${address.port}`
  }

  getHttpServer (): any { return this.#fastify.server }
  getHttpAdapter (): FastifyAdapter { return this.#adapter }

  inject: FastifyInstance['inject'] = (...args: any[]) => (this.#fastify.inject as (...args: any[]) => any)(...args)

  async register<O extends FastifyPluginOptions = any> (plugin: FastifyPlugin<O>, options?: FastifyRegisterOptions<O>): Promise<this> {
    this.#unstarted('register()')
    await this.#fastify.register(plugin as FastifyPluginAsync<O>, options as FastifyRegisterOptions<O>)
    return this
  }

  get<T = any> (token: InjectionToken<T>, options: ModuleRefGetOptions & { each: true }): T[]
  get<T = any> (token: InjectionToken<T>, options?: ModuleRefGetOptions): T
  get<T = any> (token: InjectionToken<T>, options?: ModuleRefGetOptions): T | T[] { return getIn(this.#source.current(), token, options) }
  resolve<T = any> (token: InjectionToken<T>, contextId: ContextId | undefined, options: ModuleRefGetOptions & { each: true }): Promise<T[]>
  resolve<T = any> (token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T>
  resolve<T = any> (token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T | T[]> {
    return resolveIn(this.#source.current(), token, contextId, options)
  }

  registerRequestByContextId<T = any> (request: T, contextId: ContextId): void { registerRequest(contextId, request) }

  useLogger (logger: LoggerService | LogLevel[] | false): void {
    Logger.overrideLogger(logger)
    // As NestJS does under bufferLogs: the lines held back go to the logger just given.
    if (this.#flushOnUseLogger) this.flushLogs()
  }

  flushLogs (): void { Logger.flush() }

  useGlobalGuards (...guards: Array<EnhancerEntry<CanActivate>>): this { return this.#add('useGlobalGuards', this.#options.globalGuards, guards) }
  useGlobalPipes (...pipes: Array<EnhancerEntry<PipeTransform>>): this { return this.#add('useGlobalPipes', this.#options.globalPipes, pipes) }
  useGlobalInterceptors (...interceptors: Array<EnhancerEntry<NestInterceptor | InterceptorLike>>): this { return this.#add('useGlobalInterceptors', this.#options.globalInterceptors, interceptors) }
  useGlobalFilters (...filters: Array<EnhancerEntry<ExceptionFilter>>): this { return this.#add('useGlobalFilters', this.#options.globalFilters, filters) }

  /** The plugin's `websocketAdapter`: NestJS's adapters built with the application get its HTTP server. */
  useWebSocketAdapter (adapter: WebSocketAdapter): this {
    this.#unstarted('useWebSocketAdapter()')
    this.#options.websocketAdapter = adapter
    return this
  }

  enableVersioning (options: VersioningOptions = { type: 'uri' }): this {
    this.#unstarted('enableVersioning()')
    this.#options.versioning = options
    return this
  }

  /** The plugin's `shutdownSignals`: on one of them, `close()` runs the shutdown hooks with its name. */
  enableShutdownHooks (signals: string[] = []): this {
    this.#unstarted('enableShutdownHooks()')
    const listed = signals?.length === 0 ? everyShutdownSignal : signals
    shutdownSignalsOf(listed, 'enableShutdownHooks(signals): signals')
    this.#options.shutdownSignals = listed
    return this
  }

  /**
   * Registers @fastify/cors (an optional peer) on the application's instance: with its options, a
   * function of the instance that gives them, or its delegate `(request, callback)`.
   */
  enableCors (options: CorsOptions = {}): this {
    this.#unstarted('enableCors()')
    if (options === null || (typeof options !== 'object' && typeof options !== 'function')) {
      throw new ERR_INVALID_OPTIONS(`enableCors() takes @fastify/cors's options such as { origin: 'https://example.com' }, a function of the Fastify instance that gives them, or a delegate (request, callback), given ${describe(options)}.`)
    }
    this.#cors = { plugin: loadCors(), options }
    return this
  }

  setGlobalPrefix (prefix: string, options?: GlobalPrefixOptions): this {
    this.#unstarted('setGlobalPrefix()')
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw new ERR_INVALID_OPTIONS(`setGlobalPrefix(prefix, options?): options must be { exclude: [...] }, given ${describe(options)}.`)
    }
    // Checked now, where the call is; the plugin reads them as its prefix and prefixExclude options.
    globalPrefix(prefix, options?.exclude, { prefix: 'setGlobalPrefix(prefix): prefix', exclude: 'setGlobalPrefix(prefix, { exclude }): exclude' })
    this.#options.prefix = prefix
    this.#options.prefixExclude = options?.exclude
    return this
  }

  /**
   * NestJS's `useBodyParser(type, options?, parser?)`: a parser for `type` with its own
   * `bodyLimit` (Fastify's 413 above it), keeping `request.rawBody` when the application was
   * created with `rawBody: true`; the one the application would have added for that type is not.
   */
  useBodyParser (type: string | string[] | RegExp, options: BodyParserOptions = {}, parser?: BodyParser): this {
    this.#unstarted('useBodyParser()')
    const types = Array.isArray(type) ? type : [type]
    if (types.length === 0 || types.some((one) => typeof one !== 'string' && !(one instanceof RegExp))) {
      throw new ERR_INVALID_OPTIONS(`useBodyParser(type, options?, parser?) takes a content type (a string, a list of them or a RegExp), given ${describe(type)}.`)
    }
    if (options === null || typeof options !== 'object' || (options.bodyLimit !== undefined && !(Number.isInteger(options.bodyLimit) && options.bodyLimit > 0))) {
      throw new ERR_INVALID_OPTIONS(`useBodyParser(type, options?, parser?): options are Fastify's content-type parser options such as { bodyLimit: 1048576 } (a positive integer of bytes), given ${describe(options)}.`)
    }
    if (parser !== undefined && typeof parser !== 'function') {
      throw new ERR_INVALID_OPTIONS(`useBodyParser(type, options?, parser?): parser is a function (request, body, done) or async (request, body), given ${describe(parser)}.`)
    }
    for (const one of types) this.#bodyParsers.push({ type: one, bodyLimit: options.bodyLimit, parser })
    return this
  }

  setViewEngine (options: Record<string, unknown>): this {
    this.#unstarted('setViewEngine()')
    if (options === null || typeof options !== 'object') {
      throw new ERR_INVALID_OPTIONS(`setViewEngine() takes @fastify/view's options such as { engine: { ejs }, templates }, given ${describe(options)}.`)
    }
    this.#options.view = options
    return this
  }

  // On the application's instance, as NestJS adds them: those of useBodyParser(), then with
  // rawBody the JSON and form parsers it keeps the bytes of, for the types not given one.
  #addBodyParsers (): void {
    const rawBody = this.#rawBody
    for (const { type, bodyLimit, parser } of this.#bodyParsers) addBodyParser(this.#fastify, type, { rawBody, bodyLimit, parser })
    if (!rawBody) return
    for (const type of ['application/json', urlencoded]) {
      if (!this.#bodyParsers.some((added) => takesType(added.type, type))) {
        addBodyParser(this.#fastify, type, { rawBody })
      }
    }
  }

  /** Closes the Fastify instance: every onModuleDestroy runs. */
  async close (): Promise<void> {
    await (this.#closing ??= this.#close())
  }

  async #close (): Promise<void> {
    // Started or not, the instance is released; an application that never started leaves the hooks to the module.
    try {
      if (this.#starting === undefined) await this.#source.abandon()
      else if (!this.#started) await this.#source.release()
    } finally {
      await this.#fastify.close()
    }
  }

  #add<T> (method: string, list: T[], entries: T[]): this {
    this.#unstarted(`${method}()`)
    list.push(...entries)
    return this
  }

  #unstarted (what: string): void {
    if (this.#starting !== undefined) {
      throw new ERR_INVALID_OPTIONS(`${what} was called after init(): the routes are registered by then. Call it before init() or listen().`)
    }
  }
}
