import type { ContextId, ContextInstance, InjectionToken, InstanceWrapper, ModuleWrapper, Type } from '../../types/index.js'
import type { ModuleNode } from './scanner.js'
import type { Binding } from './binding.js'
import { kBuiltinToken } from '../util/symbols.js'

/** What the container shows of one module: its class's binding, its providers by token, its controllers. */
export interface ModuleBindings {
  moduleClass: Binding | undefined
  providers: ReadonlyMap<InjectionToken, Binding>
  controllers: readonly Binding[]
  /** A request-scoped or transient instance for a context, built once for it. */
  inContext: (binding: Binding, contextId: ContextId) => Promise<unknown>
}

const kBinding = Symbol('fdp.binding')
const scopeNumbers = { DEFAULT: 0, TRANSIENT: 1, REQUEST: 2 } as const

/** The binding behind a wrapper the discovery view made. */
export function bindingOf (wrapper: InstanceWrapper): Binding | undefined {
  return (wrapper as unknown as Record<symbol, Binding | undefined>)[kBinding]
}

/** A provider or controller as NestJS's InstanceWrapper shows it, read from its binding when asked. */
class BindingWrapper implements InstanceWrapper {
  readonly [kBinding]: Binding
  readonly host: ModuleWrapper
  readonly #inContext: ModuleBindings['inContext']
  #unbuilt: object | undefined
  #contexts: WeakMap<ContextId, ContextInstance> | undefined

  constructor (binding: Binding, host: ModuleWrapper, inContext: ModuleBindings['inContext']) {
    this[kBinding] = binding
    this.host = host
    this.#inContext = inContext
  }

  get name (): string | symbol {
    const { definition, token } = this[kBinding]
    return definition.useClass?.name ?? (typeof token === 'function' ? token.name : token)
  }

  get token (): InjectionToken { return this[kBinding].token }

  get metatype (): Function | null {
    const { definition } = this[kBinding]
    return definition.useClass ?? definition.useFactory ?? (definition.useExisting !== undefined ? aliasOf : null)
  }

  get inject (): InjectionToken[] | undefined {
    const { definition } = this[kBinding]
    if (definition.useExisting !== undefined) return [definition.useExisting]
    return definition.inject?.map((entry) => typeof entry === 'object' && entry !== null && 'token' in entry ? entry.token : entry)
  }

  get instance (): any {
    const binding = this[kBinding]
    const cls = binding.definition.useClass
    // Built per request or per consumer: an object of its class, never constructed, as NestJS gives.
    if ((binding.perRequest || binding.transient) && cls !== undefined) {
      this.#unbuilt ??= Object.create(cls.prototype) as object
      return this.#unbuilt
    }
    return binding.built ? binding.instance : undefined
  }

  get isAlias (): boolean { return this[kBinding].definition.useExisting !== undefined }
  get isTransient (): boolean { return this[kBinding].transient }
  get scope (): 0 | 1 | 2 { return scopeNumbers[this[kBinding].definition.scope] }
  isDependencyTreeStatic (): boolean { return !this[kBinding].perRequest }

  /**
   * Its instance for a context (a singleton's for every context), as NestJS's wrapper keeps one:
   * building starts on the first call; `donePromise` settles once it is built (with the error, if
   * it failed) and `instance` is set then. What NestJS's injector reads of a wrapper it is given,
   * so a package that builds request-scoped instances per event (@nestjs/event-emitter) works.
   */
  getInstanceByContextId (contextId: ContextId, _inquirerId?: string): ContextInstance {
    const binding = this[kBinding]
    if (!binding.perRequest && !binding.transient) return { instance: this.instance, isResolved: binding.built, isPending: false, donePromise: Promise.resolve(undefined) }
    const contexts = this.#contexts ??= new WeakMap()
    let host = contexts.get(contextId)
    if (host === undefined) {
      const made: ContextInstance = { instance: undefined, isResolved: false, isPending: true, donePromise: Promise.resolve(undefined) }
      made.donePromise = this.#inContext(binding, contextId).then((instance) => {
        made.instance = instance
        made.isResolved = true
        made.isPending = false
        return undefined
      }, (error: unknown) => {
        made.isPending = false
        return error
      })
      contexts.set(contextId, host = made)
    }
    return host
  }

  // Read by NestJS's injector with getInstanceByContextId(): the plugin builds a provider's
  // enhancers with the provider, and knows no durable trees.
  getEnhancersMetadata (): InstanceWrapper[] { return [] }
  isDependencyTreeDurable (): boolean { return false }
}

// What an alias's metatype is in NestJS: a function giving the instance it stands for.
function aliasOf (instance: unknown): unknown { return instance }

/** One module as NestJS's Module shows it. */
class ModuleView implements ModuleWrapper {
  readonly token: string
  readonly id: string
  readonly name: string
  readonly metatype: Type
  readonly providers = new Map<InjectionToken, InstanceWrapper>()
  readonly controllers = new Map<InjectionToken, InstanceWrapper>()
  readonly imports = new Set<ModuleWrapper>()
  readonly exports: ReadonlySet<InjectionToken>
  readonly isGlobal: boolean
  readonly distance: number
  readonly #moduleClass: Binding | undefined

  constructor (node: ModuleNode, token: string, bindings: ModuleBindings) {
    this.token = token
    this.id = token
    this.name = node.name
    this.metatype = node.cls
    this.isGlobal = node.global
    // As in NestJS, a global module sits beyond any import path.
    this.distance = node.global ? Number.MAX_VALUE : node.distance
    this.exports = new Set<InjectionToken>([...node.exports, ...node.exportedModules.map((module) => module.cls)])
    this.#moduleClass = bindings.moduleClass
    const { inContext } = bindings
    if (bindings.moduleClass !== undefined) this.providers.set(node.cls, new BindingWrapper(bindings.moduleClass, this, inContext))
    for (const [token, binding] of bindings.providers) this.providers.set(token, new BindingWrapper(binding, this, inContext))
    for (let i = 0; i < bindings.controllers.length; i++) this.controllers.set(bindings.controllers[i].token, new BindingWrapper(bindings.controllers[i], this, inContext))
  }

  get instance (): unknown {
    return this.#moduleClass?.built === true ? this.#moduleClass.instance : undefined
  }

  getProviderByKey<T = any> (token: InjectionToken): InstanceWrapper<T> | undefined {
    return this.providers.get(token)
  }
}

const kSealed = Symbol('fdp.sealed')

/**
 * The application's modules, by a key of their own, as NestJS's ModulesContainer lists them:
 * read only. Injected, it is made from the container the first time something asks for it.
 */
export class ModulesContainer extends Map<string, ModuleWrapper> {
  [kSealed] = false

  /** The module with that id. */
  getById (id: string): ModuleWrapper | undefined {
    return super.get(id)
  }

  set (key: string, value: ModuleWrapper): this {
    if (this[kSealed]) throw new TypeError('ModulesContainer is read only: the application\'s modules are declared with @Module().')
    return super.set(key, value)
  }

  delete (_key: string): boolean {
    throw new TypeError('ModulesContainer is read only: the application\'s modules are declared with @Module().')
  }

  clear (): void {
    throw new TypeError('ModulesContainer is read only: the application\'s modules are declared with @Module().')
  }
}

Object.defineProperty(ModulesContainer, kBuiltinToken, { value: 'modulesContainer' })

/** The discovery view of an application: a ModulesContainer over its modules, in the scanner's order. */
export function modulesView (modules: readonly ModuleNode[], globals: readonly ModuleNode[], bindingsOf: (module: ModuleNode) => ModuleBindings): ModulesContainer {
  const container = new ModulesContainer()
  const views = new Map<ModuleNode, ModuleView>()
  const used = new Set<string>()
  for (let i = 0; i < modules.length; i++) {
    const node = modules[i]
    // A class imported as several dynamic modules is several modules: each gets a key of its own.
    let token = node.name
    for (let n = 2; used.has(token); n++) token = `${node.name}#${n}`
    used.add(token)
    const view = new ModuleView(node, token, bindingsOf(node))
    views.set(node, view)
    container.set(token, view)
  }
  // As in NestJS, a module imports every global module besides those it lists.
  for (const [node, view] of views) {
    for (let i = 0; i < node.imports.length; i++) view.imports.add(views.get(node.imports[i])!)
    for (let i = 0; i < globals.length; i++) if (globals[i] !== node) view.imports.add(views.get(globals[i])!)
  }
  container[kSealed] = true
  return container
}
