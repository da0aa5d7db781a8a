// Public types of fastify-decorator-plugin: options, shapes and the interfaces users implement.
// Runtime values live in plugin/; the classes exported there are their own types.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { WebSocketAdapter } from './websockets.js'

/** The user a guard attached to the request. Augment it to type `request.user`. */
export interface RequestUser { [key: string]: unknown }

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by guards, read by custom parameter decorators. */
    user?: RequestUser
  }
  interface FastifyInstance {
    /** The application container of fastify-decorator-plugin. */
    container: Container
  }
}

// `Request` and `Response` (the Fastify request and reply, and NestJS's names of @Req() and
// @Res()) are declared with those decorators, as a value and a type each.

/** A class that can be constructed. */
export interface Type<T = any> extends Function { new (...args: any[]): T }
/** A class, possibly abstract, used as a token. */
export type AbstractType<T = any> = abstract new (...args: any[]) => T
/** What a provider is found by: a class, a string or a symbol (any function, as NestJS's tokens). */
export type InjectionToken<T = any> = Type<T> | AbstractType<T> | string | symbol | Function

export type ScopeName = 'DEFAULT' | 'REQUEST' | 'TRANSIENT'
/** NestJS's `Scope` enum values (DEFAULT 0, TRANSIENT 1, REQUEST 2), which providers of NestJS packages carry. */
export type NestScopeValue = 0 | 1 | 2

export interface InjectableOptions { scope?: ScopeName }

export interface OptionalFactoryDependency { token: InjectionToken, optional: boolean }

export interface ClassProvider<T = any> { provide: InjectionToken, useClass: Type<T>, scope?: ScopeName | NestScopeValue }
export interface ValueProvider<T = any> { provide: InjectionToken, useValue: T }
export interface FactoryProvider<T = any> {
  provide: InjectionToken
  useFactory: (...args: any[]) => T | Promise<T>
  inject?: Array<InjectionToken | OptionalFactoryDependency>
  scope?: ScopeName | NestScopeValue
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- typed as NestJS's, which names the aliased type
export interface ExistingProvider<T = any> { provide: InjectionToken, useExisting: InjectionToken }
export type Provider<T = any> = Type<T> | ClassProvider<T> | ValueProvider<T> | FactoryProvider<T> | ExistingProvider

/** A Fastify plugin, or a plugin with its options, registered inside a module's context. */
export type ModulePlugin = ((instance: FastifyInstance, opts: any) => any) | { default: any } | [any, Record<string, unknown>?]

/** `forwardRef(() => X)`: X read only when the application is registered. */
export interface ForwardReference<T = any> { forwardRef: () => T }

/** What `imports` takes: module classes, dynamic modules, Promises of either, and forward references. */
export type ModuleImport = Type | DynamicModule | Promise<Type | DynamicModule> | ForwardReference

export interface ModuleMetadata {
  imports?: ModuleImport[]
  controllers?: Type[]
  providers?: Provider[]
  /** Provider tokens, providers, or imported modules (classes or dynamic modules) to re-export. */
  exports?: Array<InjectionToken | Type | DynamicModule | Provider | ForwardReference>
  plugins?: ModulePlugin[]
}

/**
 * A module configured where it is imported (`DatabaseModule.forRoot(options)`): its metadata is
 * added to that of `module`, which needs no `@Module()`. Each object is one module instance.
 */
export interface DynamicModule extends ModuleMetadata {
  module: Type
  /** Its exports are visible to every module, as with `@Global()`. */
  global?: boolean
}

/**
 * One route of `RouterModule.register()`: `module`'s controllers are served under `path` (after
 * the global prefix and a URI version); `children` are served under it, each a route of its own
 * (its path added to this one) or a module class (served under this path).
 */
export interface RouteTree {
  path: string
  module?: Type
  children?: Array<RouteTree | Type>
}

export type Routes = RouteTree[]

/** A class that makes a configurable module's options: `create()` unless `setFactoryMethodName()` names another method. */
export type ConfigurableModuleOptionsFactory<ModuleOptions, FactoryClassMethodKey extends string = 'create'> =
  Record<`${FactoryClassMethodKey}`, () => ModuleOptions | Promise<ModuleOptions>>

/** What `registerAsync()` takes: one of `useFactory` (with `inject`), `useClass` or `useExisting`, and the `imports` they need. */
export interface ConfigurableModuleAsyncOptions<ModuleOptions, FactoryClassMethodKey extends string = 'create'> {
  imports?: ModuleImport[]
  useFactory?: (...args: any[]) => ModuleOptions | Promise<ModuleOptions>
  inject?: FactoryProvider['inject']
  /** Built as a provider of the configured module; its factory method gives the options. */
  useClass?: Type<ConfigurableModuleOptionsFactory<ModuleOptions, FactoryClassMethodKey>>
  /** A provider visible in the configured module (through `imports`) whose factory method gives the options. */
  useExisting?: Type<ConfigurableModuleOptionsFactory<ModuleOptions, FactoryClassMethodKey>>
  /** Providers added to the configured module when `inject` names their tokens. */
  provideInjectionTokensFrom?: Provider[]
}

// No extras: nothing to add to the options.
type NoExtras = {}

/** The class a configurable module extends: static `register()` and `registerAsync()` (or the names given). */
export type ConfigurableModuleCls<ModuleOptions, MethodKey extends string = 'register', FactoryClassMethodKey extends string = 'create', Extras = NoExtras> =
  (new () => any) &
  Record<`${MethodKey}`, (options: ModuleOptions & Partial<Extras>) => DynamicModule> &
  Record<`${MethodKey}Async`, (options: ConfigurableModuleAsyncOptions<ModuleOptions, FactoryClassMethodKey> & Partial<Extras>) => DynamicModule>

/** What `ConfigurableModuleBuilder.build()` gives. */
export interface ConfigurableModuleHost<ModuleOptions = Record<string, unknown>, MethodKey extends string = string, FactoryClassMethodKey extends string = string, Extras = NoExtras> {
  /** The class the module extends (`class ConfigModule extends ConfigurableModuleClass {}`). */
  ConfigurableModuleClass: ConfigurableModuleCls<ModuleOptions, MethodKey, FactoryClassMethodKey, Extras>
  /** The token of the options provider, for `@Inject(MODULE_OPTIONS_TOKEN)` inside the module. */
  MODULE_OPTIONS_TOKEN: string | symbol
  /** Only a type (`typeof OPTIONS_TYPE`): the argument of the synchronous method. */
  OPTIONS_TYPE: ModuleOptions & Partial<Extras>
  /** Only a type (`typeof ASYNC_OPTIONS_TYPE`): the argument of the `*Async` method. */
  ASYNC_OPTIONS_TYPE: ConfigurableModuleAsyncOptions<ModuleOptions, FactoryClassMethodKey> & Partial<Extras>
}

export interface ConfigurableModuleBuilderOptions {
  /** The options token; by default a unique string. */
  optionsInjectionToken?: string | symbol
  /** Names the options token: `'HttpCache'` gives `'HTTP_CACHE_MODULE_OPTIONS'`. */
  moduleName?: string
  /** Accepted for NestJS's code: every call of the methods already gives a module of its own. */
  alwaysTransient?: boolean
}

/** Identifies a set of request-scoped and transient instances: `ContextIdFactory.create()` or `.getByRequest(request)`. */
export interface ContextId { readonly id: number }

/** `moduleRef.get(token, options)`. */
export interface ModuleRefGetOptions {
  /** true: only what the module itself declares (providers, controllers, enhancers). Default false: the whole application. */
  strict?: boolean
  /** true: every provider under the token (one per module declaring it), as a list. */
  each?: boolean
}

/** `lazyModuleLoader.load(loaderFn, options)`: NestJS's options, accepted (the plugin logs nothing while loading). */
export interface LazyModuleLoaderLoadOptions { logger?: boolean }

/** `moduleRef.introspect(token)`: the provider's scope, with what it depends on counted (a singleton on a request-scoped provider is REQUEST). */
export interface IntrospectionResult { scope: ScopeName }

/**
 * Which URLs a controller's root route answers when a prefix puts it below `/`, as Fastify's
 * `prefixTrailingSlash` route option: `'no-slash'` (`/cats`, the default), `'slash'` (`/cats/`)
 * or `'both'`.
 */
export type PrefixTrailingSlash = 'slash' | 'no-slash' | 'both'

export interface ControllerOptions {
  path?: string
  host?: string | RegExp | Array<string | RegExp>
  version?: VersionValue
  /** Overrides the plugin option `prefixTrailingSlash` for this controller's root routes. */
  prefixTrailingSlash?: PrefixTrailingSlash
  /** `Scope.REQUEST`: one controller per request, built through DI. */
  scope?: ScopeName
}

export type VersionValue = string | symbol | Array<string | symbol>

/** As in NestJS, `getRequest()` and `getResponse()` are `any` unless told: `getRequest<Request>()`. */
export interface HttpArgumentsHost {
  getRequest<T = any>(): T
  getResponse<T = any>(): T
  getNext<T = undefined>(): T
}

/** What answers a request: HTTP here; NestJS's `ws` and `rpc` contexts have the same host. */
export type ContextType = 'http' | 'ws' | 'rpc'

/** `switchToRpc()`: the arguments read as a microservice message's, by position, as NestJS reads them. */
export interface RpcArgumentsHost {
  getData<T = any>(): T
  getContext<T = any>(): T
}

/** `switchToWs()`: the arguments read as a WebSocket message's, by position, as NestJS reads them. */
export interface WsArgumentsHost {
  getData<T = any>(): T
  getClient<T = any>(): T
  getPattern(): string
}

export interface ArgumentsHost {
  getArgs<T extends any[] = any[]>(): T
  getArgByIndex<T = any>(index: number): T
  switchToHttp(): HttpArgumentsHost
  switchToRpc(): RpcArgumentsHost
  switchToWs(): WsArgumentsHost
  getType<T extends string = ContextType>(): T
}

export interface ExecutionContext extends ArgumentsHost {
  getClass<T = any>(): Type<T>
  getHandler(): Function
}

export interface CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean> | ObservableLike<boolean>
}

export interface ArgumentMetadata {
  type: 'body' | 'query' | 'param' | 'custom'
  metatype?: Type | undefined
  data?: string | undefined
}

export interface PipeTransform<T = any, R = any> {
  transform(value: T, metadata: ArgumentMetadata): R | Promise<R>
}

/** Anything with `subscribe`, such as an rxjs Observable. */
export interface ObservableLike<T = unknown> {
  subscribe(observer: { next?: (value: T) => void, error?: (err: unknown) => void, complete?: () => void }): unknown
}

/** One Server-Sent Event, as an `@Sse()` handler emits it. */
export interface MessageEvent {
  /** Sent as `data:` lines: a string as it is (one line per line), anything else as JSON. */
  data?: string | object
  /** Sent as `id:`; events without one are numbered from 1. */
  id?: string
  /** Sent as `event:`. */
  type?: string
  /** Sent as `retry:`: how many milliseconds the client waits before it reconnects. */
  retry?: number
  /** Sent as a `:` comment line, which clients ignore. */
  comment?: string
}

export interface SseOptions {
  /**
   * Characters of events (as NestJS counts them) that may wait for a client that does not read them before its connection is
   * dropped (4M by default); 0 or Infinity lifts the limit. An async iterable is only read as
   * fast as the client reads, so this limits Observables.
   */
  maxPendingDataLength?: number
}

/**
 * A function as rxjs operators are (`map(...)`, `tap(...)`, `catchError(...)`): its parameter is
 * compared both ways, so rxjs's `Observable` fits without the package naming rxjs's types.
 */
export type OperatorLike<T, R> = { bivarianceHack (source: ObservableLike<T>): R }['bivarianceHack']

/** `.pipe(...)` as rxjs has it: each operator gets what the one before it returned. */
export interface Pipeable<T> {
  pipe(): this
  pipe<A>(op1: OperatorLike<T, A>): A
  pipe<A, B>(op1: OperatorLike<T, A>, op2: (source: A) => B): B
  pipe<A, B, C>(op1: OperatorLike<T, A>, op2: (source: A) => B, op3: (source: B) => C): C
  pipe<A, B, C, D>(op1: OperatorLike<T, A>, op2: (source: A) => B, op3: (source: B) => C, op4: (source: C) => D): D
  pipe<A, B, C, D, E>(op1: OperatorLike<T, A>, op2: (source: A) => B, op3: (source: B) => C, op4: (source: C) => D, op5: (source: D) => E): E
  pipe<A, B, C, D, E, F>(op1: OperatorLike<T, A>, op2: (source: A) => B, op3: (source: B) => C, op4: (source: C) => D, op5: (source: D) => E, op6: (source: E) => F): F
  pipe(...operators: Array<(source: any) => any>): unknown
}

/**
 * What `next.handle()` gives: a promise of the result of the rest of the chain, and, when rxjs
 * is installed, an rxjs Observable of it (`.pipe(map(...))`, `.subscribe()`). On an `@Sse()`
 * route it is an Observable only, as in NestJS: a stream has no last value to await.
 */
export interface HandleResult<T> extends Promise<T>, ObservableLike<T>, Pipeable<T> {}

export interface CallHandler<T = any> {
  /** Runs the rest of the chain (inner interceptors, pipes, handler) when awaited or subscribed to. */
  handle(): HandleResult<T>
}

export interface NestInterceptor<T = any, R = any> {
  intercept(context: ExecutionContext, next: CallHandler<T>): R | Promise<R> | ObservableLike<R>
}

/**
 * An interceptor typed against another library's `next` (NestJS's, whose `handle()` is an rxjs
 * Observable): accepted wherever interceptors are, as the plugin's `next.handle()` is one too.
 */
export interface InterceptorLike {
  intercept(context: ExecutionContext, next: { handle(): ObservableLike<any> }): unknown
}

export interface ExceptionFilter<T = any> {
  catch(exception: T, host: ArgumentsHost): unknown
}

export interface OnModuleInit { onModuleInit(): unknown }
export interface OnModuleDestroy { onModuleDestroy(): unknown }
/** Runs once every module's onModuleInit has, when the app becomes ready. */
export interface OnApplicationBootstrap { onApplicationBootstrap(): unknown }
/** Runs on close after every onModuleDestroy; `signal` is set when `shutdownSignals` closed the app. */
export interface BeforeApplicationShutdown { beforeApplicationShutdown(signal?: string): unknown }
/** Runs last on close, after every beforeApplicationShutdown. */
export interface OnApplicationShutdown { onApplicationShutdown(signal?: string): unknown }

export type EnhancerEntry<T> = Type<T> | T

export type VersioningOptions =
  | { type: 'header', header?: string, defaultVersion?: VersionValue }
  | { type: 'uri', prefix?: string | false, defaultVersion?: VersionValue }
  | { type: 'media-type', key?: string, defaultVersion?: VersionValue }
  /** `extractor` runs while Fastify routes the request, so it gets Node's request (`headers`, `url`, `method`). */
  | { type: 'custom', extractor: (request: FastifyRequest['raw']) => string | string[] | undefined, defaultVersion?: VersionValue }

/** A RequestMethod's value. */
type RequestMethodValue = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15

/** A route in forRoutes()/exclude(): a path pattern and a method (`version`: a URI version). */
export interface RouteInfo {
  path: string
  method: RequestMethodValue
  version?: VersionValue
}

/**
 * `setGlobalPrefix(prefix, options)`: `exclude` lists the routes served without the prefix, each a
 * path pattern (every method) or `{ path, method }` (one `RequestMethod`, or `RequestMethod.ALL`).
 */
export interface GlobalPrefixOptions {
  exclude?: ExcludedRoute[]
}

/** A route served without the global prefix: a path pattern (every method) or `{ path, method }`. */
export type ExcludedRoute = string | RouteInfo

export interface DecoratorPluginOptions {
  /** The root module class. */
  module: Type
  /** A prefix for every controller path. */
  prefix?: string
  /**
   * Routes served without `prefix` (NestJS's `setGlobalPrefix(prefix, { exclude })`), e.g.
   * `['health', { path: 'cats/:id', method: RequestMethod.GET }]`: patterns are matched on a route's
   * path below the prefix (module, controller and route path), without a URI version.
   */
  prefixExclude?: ExcludedRoute[]
  /** URLs of each controller's root route: `'no-slash'` (default), `'slash'` or `'both'`, as Fastify's option of that name. */
  prefixTrailingSlash?: PrefixTrailingSlash
  versioning?: VersioningOptions
  globalGuards?: Array<EnhancerEntry<CanActivate>>
  globalPipes?: Array<EnhancerEntry<PipeTransform>>
  globalInterceptors?: Array<EnhancerEntry<NestInterceptor | InterceptorLike>>
  globalFilters?: Array<EnhancerEntry<ExceptionFilter>>
  /** Options for @fastify/view, registered for @Render routes. */
  view?: Record<string, unknown>
  /**
   * Keep the bytes of every controller route's JSON, text and form bodies as `request.rawBody`
   * (a Buffer), parsed once: NestJS's `rawBody: true`. Plain routes of the app are not changed.
   */
  rawBody?: boolean
  /** Providers that replace those of the same token anywhere in the graph. */
  overrides?: Provider[]
  /**
   * Signals (e.g. `['SIGTERM', 'SIGINT']`) on which the app closes, passing the signal to
   * beforeApplicationShutdown and onApplicationShutdown: NestJS's enableShutdownHooks(). Off by default.
   */
  shutdownSignals?: Array<NodeJS.Signals | (string & Record<never, never>)>
  /**
   * Serves the application's WebSocket gateways: NestJS's `WsAdapter` or `IoAdapter`, or the
   * plugin's `FastifyWsAdapter` (the default), on the app's own HTTP server for port 0.
   */
  websocketAdapter?: WebSocketAdapter
}

export interface Container {
  /** A provider instance by token (singletons). */
  get<T = any>(token: InjectionToken<T>): T
  /** A provider instance for a request: request-scoped providers get that request's instance. */
  resolve<T = any>(token: InjectionToken<T>, request?: FastifyRequest): Promise<T>
}

export type HookName = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onResponse' | 'onError' | 'onTimeout' | 'onRequestAbort'

/** `@RouteSchema()`: the route's Fastify `schema` (JSON Schema or TypeBox; extra keys such as `summary` and `tags` go to @fastify/swagger). */
export type RouteSchemaOptions = NonNullable<RouteShorthandOptions['schema']>
/** `@RouteConfig()`: the route's Fastify `config`; plugins type their keys by augmenting `FastifyContextConfig`. */
export type RouteConfigOptions = FastifyContextConfig & Record<string, unknown>
/** `@RouteConstraints()`: `host`, `version`, or the name of a strategy the app added. */
export type RouteConstraintsOptions = NonNullable<RouteShorthandOptions['constraints']>

/** `new StreamableFile(data, options)`: headers sent with the stream, unless the reply already has them. */
export interface StreamableFileOptions {
  /** `Content-Type`; default `application/octet-stream`. */
  type?: string
  /** `Content-Disposition`, e.g. `attachment; filename="report.csv"`. */
  disposition?: string
  /** `Content-Length` in bytes; known by itself for a Buffer or Uint8Array. */
  length?: number
}

/** A file from @UploadedFile()/@UploadedFiles(), read into memory by @fastify/multipart. */
export interface UploadedFileInfo {
  fieldname: string
  filename: string
  encoding: string
  mimetype: string
  buffer: Buffer
}

/** `@UploadedFile({ field, required })`: `required` (default true) answers 400 when no file came. */
export interface UploadedFileOptions {
  field?: string
  required?: boolean
}

/** `@SetMetadata(key, value)` and the decorators made from it; `KEY` is the metadata key. */
export interface CustomDecorator<K = string> {
  (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void
  KEY: K
}

/** A decorator made by `Reflector.createDecorator`: `@Roles(['admin'])`, read with `reflector.get(Roles, target)`. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- TTransformed keeps NestJS's signature (the stored value's type)
export interface ReflectableDecorator<TParam, TTransformed = TParam> {
  (value?: TParam): CustomDecorator<string | symbol>
  KEY: string | symbol
}

export interface CreateDecoratorOptions<TParam, TTransformed = TParam> {
  /** The metadata key; a unique symbol when omitted. */
  key?: string | symbol
  /** Maps the decorator's argument to the stored value. */
  transform?: (value: TParam) => TTransformed
}

/** `new HttpException(response, status, options)`: `cause` for the error chain, `description` as the body's `error`. */
export interface HttpExceptionOptions {
  cause?: unknown
  description?: string
}

/** Options of `ParseIntPipe`, `ParseFloatPipe`, `ParseBoolPipe`, `ParseUUIDPipe`, `ParseEnumPipe`. */
export interface ParsePipeOptions {
  /** The status of the error thrown on bad input (default 400). */
  errorHttpStatusCode?: number
  /** Makes the error from a message; replaces the built-in one. */
  exceptionFactory?: (message: string) => unknown
  /** `undefined` and `null` pass through unchanged. */
  optional?: boolean
}

export interface ParseArrayOptions extends ParsePipeOptions {
  /** Separator of a string value (default ','). */
  separator?: string
  /** Converts each item: Number, String or Boolean. */
  items?: NumberConstructor | StringConstructor | BooleanConstructor
}

export interface ValidationPipeOptions {
  /** Return DTO instances and convert primitives by design type. */
  transform?: boolean
  /** Strip properties without validation decorators. */
  whitelist?: boolean
  /** Fail on properties without validation decorators (with whitelist). */
  forbidNonWhitelisted?: boolean
  skipMissingProperties?: boolean
  skipUndefinedProperties?: boolean
  skipNullProperties?: boolean
  forbidUnknownValues?: boolean
  stopAtFirstError?: boolean
  groups?: string[]
  /** Also validate values from custom parameter decorators. */
  validateCustomDecorators?: boolean
  /** Send the error without the constraint messages. */
  disableErrorMessages?: boolean
  /** Status of the validation error (default 400). */
  errorHttpStatusCode?: number
  /** Turns class-validator errors into the thrown error. */
  exceptionFactory?: (errors: ValidationError[]) => unknown
  /** Options passed to class-transformer's plainToInstance. */
  transformOptions?: Record<string, unknown>
  /** Options passed to class-validator's validate (merged over the ones above). */
  validatorOptions?: Record<string, unknown>
  /**
   * Compile the DTOs of `@Body()`, `@Query()` and `@Param()` objects to the route's JSON schema
   * (Fastify's validation, @fastify/swagger). Answers stay class-validator's.
   */
  compile?: boolean
}

export interface ValidationError {
  property: string
  value?: unknown
  constraints?: Record<string, string>
  children?: ValidationError[]
}

/** `discovery.getProviders(options)` and `getControllers(options)`: every module's, or only `include`'s, or those a discoverable decorator marks. */
export interface DiscoveryOptions {
  /** Only the modules of these classes (a dynamic module by its class). */
  include?: Function[]
  /** Only the classes a decorator of `DiscoveryService.createDecorator()` marks: its `KEY`; `include` is then not read, as in NestJS. */
  metadataKey?: string
}

/** A decorator made by `DiscoveryService.createDecorator()`: it marks classes (found by `KEY`) and methods. */
export interface DiscoverableDecorator<T> {
  (options?: T): (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void
  KEY: string
}

/**
 * A provider or controller as discovery shows it, the way NestJS's `InstanceWrapper` does: read
 * only, its instance as built.
 */
export interface InstanceWrapper<T = any> {
  /** The class's name (a `useClass` provider: that class's), else the token. */
  readonly name: string | symbol
  readonly token: InjectionToken
  /** The class built, a factory's function, `null` for a value. */
  readonly metatype: Function | null
  /** A factory's (or an alias's) tokens, else `undefined`. */
  readonly inject: InjectionToken[] | undefined
  /**
   * The singleton, once built. A request-scoped or transient one (or one depending on them)
   * gives an object of its class that was never constructed, as NestJS does: resolve it per
   * context through `ModuleRef`.
   */
  readonly instance: T
  /** A `useExisting` provider. */
  readonly isAlias: boolean
  readonly isTransient: boolean
  /** NestJS's number for the scope: 0 default, 1 transient, 2 request. */
  readonly scope: 0 | 1 | 2
  /** The module that declares it. */
  readonly host: ModuleWrapper
  /** false when it is request-scoped or depends on something request-scoped: one instance per request. */
  isDependencyTreeStatic: () => boolean
  /**
   * Its instance for a context, as NestJS's wrapper keeps it (a singleton's for any context):
   * a request-scoped or transient one is built on the first call, `instance` set once
   * `donePromise` settles. Prefer `await moduleRef.resolve(token, contextId)`.
   */
  getInstanceByContextId: (contextId: ContextId, inquirerId?: string) => ContextInstance
}

/** One instance of a provider for a context, as `InstanceWrapper.getInstanceByContextId()` gives it. */
export interface ContextInstance<T = any> {
  instance: T
  isResolved: boolean
  isPending: boolean
  /** Settles once the instance is built: with undefined, or with the error its build threw. */
  donePromise: Promise<unknown>
}

/** A module as discovery and `ModulesContainer` show it, the way NestJS's `Module` does. */
export interface ModuleWrapper {
  /** Its key in `ModulesContainer`. */
  readonly token: string
  readonly id: string
  readonly name: string
  readonly metatype: Type
  /** The module class's instance, once built. */
  readonly instance: unknown
  /** Its providers by token, its own class first. */
  readonly providers: ReadonlyMap<InjectionToken, InstanceWrapper>
  readonly controllers: ReadonlyMap<InjectionToken, InstanceWrapper>
  readonly imports: ReadonlySet<ModuleWrapper>
  /** The tokens and module classes it exports. */
  readonly exports: ReadonlySet<InjectionToken>
  readonly isGlobal: boolean
  /** How deep it sits under the root module (1); a global module's is `Number.MAX_VALUE`, as in NestJS. */
  readonly distance: number
  getProviderByKey: <T = any>(token: InjectionToken) => InstanceWrapper<T> | undefined
}
