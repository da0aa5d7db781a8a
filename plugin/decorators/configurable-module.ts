import { randomUUID } from 'node:crypto'
import type {
  ConfigurableModuleAsyncOptions, ConfigurableModuleBuilderOptions, ConfigurableModuleCls, ConfigurableModuleHost,
  DynamicModule, Provider, Type
} from '../../types/index.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'

type Transform<Extras> = (definition: DynamicModule, extras: Extras) => DynamicModule

interface Settings {
  method: string
  factoryMethod: string
  extras: Record<string, unknown> | undefined
  transform: Transform<any>
}

// 'HttpCache' -> 'HTTP_CACHE_MODULE_OPTIONS'
function tokenFromName (moduleName: string): string {
  return `${moduleName.trim().split(/(?=[A-Z])/).join('_').toUpperCase()}_MODULE_OPTIONS`
}

// Stands for a type-only export: reading it is a mistake worth naming.
function typeOnly (name: string): any {
  return new Proxy({}, {
    get () { throw new ERR_INVALID_DECLARATION(`"${name}" is only a type: use it as typeof ${name}, not as a value.`) }
  })
}

function withoutExtras (options: Record<string, unknown>, extras: Record<string, unknown> | undefined): Record<string, unknown> {
  if (extras === undefined || options === null || typeof options !== 'object') return options
  return Object.fromEntries(Object.entries(options).filter(([key]) => !Object.hasOwn(extras, key)))
}

const asyncKinds = ['useFactory', 'useClass', 'useExisting'] as const

/**
 * Builds the static methods of a configurable module (NestJS's `ConfigurableModuleBuilder`):
 * `register(options)` and `registerAsync({ useFactory | useClass | useExisting, inject, imports })`
 * give dynamic modules whose `MODULE_OPTIONS_TOKEN` provider holds the options.
 */
export class ConfigurableModuleBuilder<ModuleOptions, StaticMethodKey extends string = 'register', FactoryClassMethodKey extends string = 'create', Extras = {}> {
  readonly #options: ConfigurableModuleBuilderOptions
  readonly #settings: Settings

  constructor (options: ConfigurableModuleBuilderOptions = {}, settings?: Settings) {
    this.#options = { ...options }
    this.#settings = settings ?? { method: 'register', factoryMethod: 'create', extras: undefined, transform: (definition) => definition }
  }

  /** Names the static methods: `forRoot` gives `forRoot()` and `forRootAsync()`. */
  setClassMethodName<Key extends string> (key: Key): ConfigurableModuleBuilder<ModuleOptions, Key, FactoryClassMethodKey, Extras> {
    return new ConfigurableModuleBuilder(this.#options, { ...this.#settings, method: key })
  }

  /** Names the method an options class of `registerAsync({ useClass | useExisting })` implements (default `create`). */
  setFactoryMethodName<Key extends string> (key: Key): ConfigurableModuleBuilder<ModuleOptions, StaticMethodKey, Key, Extras> {
    return new ConfigurableModuleBuilder(this.#options, { ...this.#settings, factoryMethod: key })
  }

  /**
   * Extra options of the static methods, with their defaults: they are taken out of the module's
   * options and handed, with the defaults, to `transform`, which may change the dynamic module
   * (`(definition, extras) => ({ ...definition, global: extras.isGlobal })`).
   */
  setExtras<E> (extras: E, transform: Transform<E> = (definition) => definition): ConfigurableModuleBuilder<ModuleOptions, StaticMethodKey, FactoryClassMethodKey, E> {
    return new ConfigurableModuleBuilder(this.#options, { ...this.#settings, extras: extras as Record<string, unknown>, transform })
  }

  build (): ConfigurableModuleHost<ModuleOptions, StaticMethodKey, FactoryClassMethodKey, Extras> {
    const token = this.#options.optionsInjectionToken ??
      (this.#options.moduleName !== undefined ? tokenFromName(this.#options.moduleName) : `CONFIGURABLE_MODULE_OPTIONS[${randomUUID()}]`)
    return {
      ConfigurableModuleClass: configurableClass(token, { ...this.#settings }) as unknown as ConfigurableModuleCls<ModuleOptions, StaticMethodKey, FactoryClassMethodKey, Extras>,
      MODULE_OPTIONS_TOKEN: token,
      OPTIONS_TYPE: typeOnly('OPTIONS_TYPE'),
      ASYNC_OPTIONS_TYPE: typeOnly('ASYNC_OPTIONS_TYPE')
    }
  }
}

function configurableClass (token: string | symbol, settings: Settings): Function {
  const { method, factoryMethod, extras, transform } = settings
  const asyncMethod = `${method}Async`
  // The providers that make the options of registerAsync().
  const asyncProviders = (owner: string, options: ConfigurableModuleAsyncOptions<unknown, string>): Provider[] => {
    const given = asyncKinds.filter((kind) => options?.[kind] !== undefined)
    if (given.length !== 1) {
      throw new ERR_INVALID_DECLARATION(`${owner}.${asyncMethod}() needs one of useFactory, useClass or useExisting to make the options, given ${describe(options)}.`)
    }
    if (options.useFactory) {
      const inject = options.inject ?? []
      const tokens = new Set(inject.map((entry) => typeof entry === 'object' && entry !== null && 'token' in entry ? entry.token : entry))
      const shared = (options.provideInjectionTokensFrom ?? []).filter((provider) => tokens.has(typeof provider === 'function' ? provider : provider.provide))
      return [{ provide: token, useFactory: options.useFactory, inject }, ...shared]
    }
    const factory = (options.useClass ?? options.useExisting) as Type
    const fromFactory = async (instance: Record<string, unknown>) => {
      if (typeof instance?.[factoryMethod] !== 'function') {
        throw new ERR_INVALID_DECLARATION(`${factory.name}, the options factory of ${owner}.${asyncMethod}(), has no ${factoryMethod}() method.`)
      }
      return await (instance[factoryMethod] as () => unknown)()
    }
    const providers: Provider[] = [{ provide: token, useFactory: fromFactory, inject: [factory] }]
    if (options.useClass) providers.push({ provide: factory, useClass: factory })
    return providers
  }
  // `this` is the module class the method is called on: the subclass that extends this one.
  return class ConfigurableModule {
    static [method] (this: Type, options: Record<string, unknown>): DynamicModule {
      return transform({ module: this, providers: [{ provide: token, useValue: withoutExtras(options, extras) }] }, { ...extras, ...options })
    }

    static [asyncMethod] (this: Type, options: ConfigurableModuleAsyncOptions<unknown, string> & Record<string, unknown>): DynamicModule {
      const providers = asyncProviders(this.name, options)
      return transform({ module: this, imports: options.imports ?? [], providers }, { ...extras, ...options })
    }
  }
}
