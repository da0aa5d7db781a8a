import { registerRequest } from '../decorators/context-id.js'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Container as PublicContainer, ContextId, DynamicModule, InjectionToken, ModuleMetadata, ModuleRefGetOptions, Provider, Type } from '../../types/index.js'
import type { LoggerService, LogLevel } from '../../types/logger.js'
import type { NestApplicationOptions } from '../../types/application.js'
import type { OverrideByFactoryOptions } from '../../types/testing.js'
import { decoratorPlugin } from '../plugin.js'
import { Module } from '../decorators/module.js'
import { injectableOptions } from '../decorators/injectable.js'
import { controllerDefinition } from '../decorators/controller.js'
import { FastifyAdapter } from '../common/fastify-adapter.js'
import { Logger } from '../extras/logger.js'
import { kInternal, type BuiltApplication } from '../di/internal-options.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe, tokenName } from '../util/describe.js'
import { seedFrom } from './seed.js'
import { getIn, resolveIn } from './lookup.js'
import { TestingApplication, type ApplicationSource } from './application.js'

/** What an overridden token is replaced with. */
export interface OverrideBy {
  useValue (value: unknown): TestingModuleBuilder
  useClass (cls: Type): TestingModuleBuilder
  useFactory (options: OverrideByFactoryOptions): TestingModuleBuilder
}

export interface OverrideModule {
  useModule (module: ModuleDefinition): TestingModuleBuilder
}

/** A module as `imports` takes it: a class, a dynamic module, or a Promise of either. */
export type ModuleDefinition = Type | DynamicModule | Promise<Type | DynamicModule>

/** What `useMocker()` takes: a stand-in for a token no module provides, or a falsy value to leave the error. */
export type MockFactory = (token?: InjectionToken) => any

/** The test module's graph, as the builder collected it: built once by compile(), again by the application. */
interface Blueprint {
  module: Type
  overrides: Provider[]
  replaceModules: Map<unknown, unknown>
  mocker?: MockFactory
}

/**
 * `Test.createTestingModule(metadata)`: collects overrides, then `compile()` builds the module
 * on a real Fastify instance with the plugin registered (providers and controllers, no routes).
 */
export class TestingModuleBuilder {
  readonly #blueprint: Blueprint

  constructor (metadata: ModuleMetadata) {
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      throw new ERR_INVALID_OPTIONS(`Test.createTestingModule() takes module metadata { imports, controllers, providers }, given ${describe(metadata)}.`)
    }
    // The root of the test graph, named as NestJS names it.
    const RootTestModule = class RootTestModule {}
    Module(metadata)(RootTestModule)
    this.#blueprint = { module: RootTestModule, overrides: [], replaceModules: new Map() }
  }

  overrideProvider (token: InjectionToken): OverrideBy { return this.#override(token, 'overrideProvider') }
  overrideGuard (token: InjectionToken): OverrideBy { return this.#override(token, 'overrideGuard') }
  overridePipe (token: InjectionToken): OverrideBy { return this.#override(token, 'overridePipe') }
  overrideInterceptor (token: InjectionToken): OverrideBy { return this.#override(token, 'overrideInterceptor') }
  overrideFilter (token: InjectionToken): OverrideBy { return this.#override(token, 'overrideFilter') }

  /**
   * Replaces a module wherever it is imported (or re-exported) by another module: a class, or a
   * dynamic module object or Promise, matched by identity as NestJS matches them.
   */
  overrideModule (module: ModuleDefinition): OverrideModule {
    if (!isModuleDefinition(module)) {
      throw new ERR_INVALID_OPTIONS(`overrideModule() takes a module class, a dynamic module or a Promise of one, given ${describe(module)}.`)
    }
    return {
      useModule: (replacement) => {
        if (!isModuleDefinition(replacement)) {
          throw new ERR_INVALID_OPTIONS(`overrideModule().useModule() takes a module class, a dynamic module or a Promise of one, given ${describe(replacement)}.`)
        }
        this.#blueprint.replaceModules.set(module, replacement)
        return this
      }
    }
  }

  /** Stand-ins for the dependencies no module provides: `mocker(token)`, asked once per place of injection. */
  useMocker (mocker: MockFactory): TestingModuleBuilder {
    if (typeof mocker !== 'function') throw new ERR_INVALID_OPTIONS(`useMocker() takes a function (token) => mock, given ${describe(mocker)}.`)
    this.#blueprint.mocker = mocker
    return this
  }

  #override (token: InjectionToken, method: string): OverrideBy {
    if (!['function', 'string', 'symbol'].includes(typeof token)) {
      throw new ERR_INVALID_OPTIONS(`${method}() takes a token (a class, a string or a symbol), given ${describe(token)}.`)
    }
    const add = (provider: Provider): TestingModuleBuilder => {
      this.#blueprint.overrides.push(provider)
      return this
    }
    const where = `${method}(${tokenName(token)})`
    return {
      useValue: (value) => add({ provide: token, useValue: value }),
      useClass: (cls) => {
        if (typeof cls !== 'function') throw new ERR_INVALID_OPTIONS(`${where}.useClass() takes a class, given ${describe(cls)}.`)
        return add({ provide: token, useClass: cls })
      },
      useFactory: (options) => {
        if (typeof options?.factory !== 'function') {
          throw new ERR_INVALID_OPTIONS(`${where}.useFactory() takes { factory, inject? }, given ${describe(options)}.`)
        }
        return add({ provide: token, useFactory: options.factory, inject: options.inject })
      }
    }
  }

  /** Builds every provider and controller (no lifecycle hook runs yet: see init()). */
  async compile (): Promise<TestingModule> {
    const blueprint = { ...this.#blueprint, overrides: [...this.#blueprint.overrides], replaceModules: new Map(this.#blueprint.replaceModules) }
    const fastify = Fastify()
    let built: BuiltApplication | undefined
    try {
      await fastify.register(decoratorPlugin, {
        module: blueprint.module,
        overrides: blueprint.overrides,
        [kInternal]: { replaceModules: blueprint.replaceModules, mocker: blueprint.mocker, contextOnly: true, manualLifecycle: (application: BuiltApplication) => { built = application } }
      } as Parameters<typeof decoratorPlugin>[1])
    } catch (error) {
      await fastify.close().catch(() => {})
      throw error
    }
    return new TestingModule(blueprint, fastify, built!)
  }
}

// A module class (decorated or not, but no provider or controller), a dynamic module object, or a Promise of either.
function isModuleDefinition (value: unknown): boolean {
  if (typeof value === 'function') return value.prototype !== undefined && injectableOptions(value) === undefined && controllerDefinition(value) === undefined
  return isPlainObject(value) ? typeof value.module === 'function' : typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}

const applicationKeys = new Set(['logger', 'bufferLogs', 'cors', 'rawBody'])

function isPlainObject (value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

// NestJS's application options that have a meaning here; any other is refused rather than ignored.
function applicationOptions (options: unknown): NestApplicationOptions {
  if (options === undefined) return {}
  if (!isPlainObject(options)) {
    throw new ERR_INVALID_OPTIONS(`createNestApplication(adapter, options): options must be an object such as { logger: false }, given ${describe(options)}.`)
  }
  const unknown = Object.keys(options).filter((key) => !applicationKeys.has(key))
  if (unknown.length > 0) {
    throw new ERR_INVALID_OPTIONS(`createNestApplication(adapter, options): ${unknown.map((key) => `"${key}"`).join(', ')} is not supported (logger, bufferLogs, cors and rawBody are). Pass Fastify's server options to new FastifyAdapter() instead.`)
  }
  return options
}

/** NestJS's `Test`: the entry point of module tests. */
export class Test {
  static createTestingModule (metadata: ModuleMetadata): TestingModuleBuilder {
    return new TestingModuleBuilder(metadata)
  }
}

/**
 * A compiled test module: its providers and controllers by `get()`, and applications made
 * from it by `createNestApplication()`. Once an application is initialized, `get()` answers
 * from it (the same instances: the application reuses what compile() built).
 */
export class TestingModule implements ApplicationSource {
  readonly #blueprint: Blueprint
  readonly #context: FastifyInstance
  readonly #built: BuiltApplication
  #container: PublicContainer
  readonly #applications: TestingApplication[] = []
  #initialized: Promise<void> | undefined
  #closed: Promise<void> | undefined

  constructor (blueprint: Blueprint, context: FastifyInstance, built: BuiltApplication) {
    this.#blueprint = blueprint
    this.#context = context
    this.#built = built
    this.#container = context.container
  }

  /** A provider or controller instance by token (singletons); `{ strict: true }`: only those the test module declares. */
  get<T = any> (token: InjectionToken<T>, options: ModuleRefGetOptions & { each: true }): T[]
  get<T = any> (token: InjectionToken<T>, options?: ModuleRefGetOptions): T
  get<T = any> (token: InjectionToken<T>, options?: ModuleRefGetOptions): T | T[] {
    return getIn(this.#container, token, options)
  }

  /** A request-scoped or transient provider, built for `contextId` (a fresh context without it); `{ each: true }`: every one under the token. */
  resolve<T = any> (token: InjectionToken<T>, contextId: ContextId | undefined, options: ModuleRefGetOptions & { each: true }): Promise<T[]>
  resolve<T = any> (token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T>
  resolve<T = any> (token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T | T[]> {
    return resolveIn(this.#container, token, contextId, options)
  }

  /** Makes `request` what REQUEST injects into what is resolved with `contextId`. */
  registerRequestByContextId<T = any> (request: T, contextId: ContextId): void { registerRequest(contextId, request) }

  useLogger (logger: LoggerService | LogLevel[] | false): void { Logger.overrideLogger(logger) }
  flushLogs (): void { Logger.flush() }

  /** Runs every onModuleInit (an application runs them itself when it is initialized). */
  async init (): Promise<this> {
    await (this.#initialized ??= this.#built.init())
    return this
  }

  /** Runs every onModuleDestroy and releases the Fastify instances, the applications' included. */
  async close (): Promise<void> {
    if (this.#applications.length === 0) return await this.abandon()
    for (const application of this.#applications) await application.close()
  }

  /**
   * An application serving the module: `new FastifyAdapter(options | app)` picks its Fastify
   * instance (a new one by default). Routes are registered by `init()` (or `listen()`).
   */
  createNestApplication<T = TestingApplication> (adapter?: FastifyAdapter, options?: NestApplicationOptions): T
  createNestApplication<T = TestingApplication> (options?: NestApplicationOptions): T
  createNestApplication<T = TestingApplication> (adapterOrOptions?: FastifyAdapter | NestApplicationOptions, options?: NestApplicationOptions): T {
    const optionsFirst = isPlainObject(adapterOrOptions)
    const adapter = optionsFirst ? new FastifyAdapter() : adapterOrOptions ?? new FastifyAdapter()
    if (!(adapter instanceof FastifyAdapter)) {
      throw new ERR_INVALID_OPTIONS(`createNestApplication() takes a FastifyAdapter, given ${describe(adapter)}.`)
    }
    const settings = applicationOptions(optionsFirst ? adapterOrOptions as NestApplicationOptions : options)
    // Each call a new application over the module's instances, as NestJS makes one over its container.
    const application = new TestingApplication(this, adapter, settings)
    this.#applications.push(application)
    return application as T
  }

  // ApplicationSource: what the application needs from the module.
  pluginOptions () {
    return {
      module: this.#blueprint.module,
      overrides: this.#blueprint.overrides,
      [kInternal]: { replaceModules: this.#blueprint.replaceModules, mocker: this.#blueprint.mocker, seed: seedFrom(this.#built.container) }
    }
  }

  async started (container: PublicContainer): Promise<void> {
    this.#container = container
    // The application runs the lifecycle of the instances it took over; the context only releases its instance.
    await this.release()
  }

  async release (): Promise<void> {
    await (this.#closed ??= this.#closeContext(false))
  }

  current (): PublicContainer { return this.#container }

  async abandon (): Promise<void> {
    await (this.#closed ??= this.#closeContext(true))
  }

  async #closeContext (destroy: boolean): Promise<void> {
    try {
      if (destroy) await this.#built.destroy()
    } finally {
      await this.#context.close()
    }
  }
}
