import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ContextId, Provider, Type } from '../../types/index.js'
import type { ModuleGraph, ModuleNode } from './scanner.js'
import { normalizeProvider, type ProviderDefinition, type Token } from './providers.js'
import { type Binding, type BindingKind, type Box, type Builtin, type Dependency, bindingName, dependencyPlace, newBinding } from './binding.js'
import { declareDependencies } from './dependencies.js'
import { checkDependencies } from './cycles.js'
import { ModuleReference, type Lookups } from './module-ref.js'
import { DiscoveryService, type DiscoverableKeys } from './discovery.js'
import { MetadataScanner } from './metadata-scanner.js'
import { modulesView, type ModuleBindings, type ModulesContainer } from './modules-container.js'
import { Reflector } from '../decorators/reflector.js'
import { ApplicationConfig } from './application-config.js'
import { ApplicationLazyLoader, type LazyHost } from './lazy-module-loader.js'
import type { HookTarget } from './lifecycle.js'
import { ContextIdFactory, contextHolder, requestOf } from '../decorators/context-id.js'
import { FASTIFY, INQUIRER, REQUEST } from '../util/tokens.js'
import { kBuiltinToken, kRequestScope } from '../util/symbols.js'
import {
  ERR_INVALID_PROVIDER, ERR_UNKNOWN_DEPENDENCY, ERR_UNKNOWN_OVERRIDE, ERR_PROVIDER_FAILED
} from '../util/errors.js'
import { tokenName } from '../util/describe.js'
import { andThen, isThenable, promised, whenAll } from '../util/thenable.js'

export type { Binding, BindingKind, Box } from './binding.js'
export { bindingName } from './binding.js'

/**
 * Tokens that stand for others (NestJS's 'REQUEST' for REQUEST), or for a value the
 * application provides everywhere (an HttpAdapterHost): given by the NestJS reader.
 */
export type TokenAliases = Map<Token, Token | { useValue: unknown }>

/** What the NestJS reader gives the container: token aliases, and a reader for classes met late. */
export interface ForeignMetadata {
  aliases: TokenAliases
  /** Reads the metadata of a class first resolved after the scan (a middleware class). */
  readClass: (cls: Function) => void
  /** Which classes @nestjs/core's discoverable decorators mark, when it is loaded. */
  discoverableKeys?: DiscoverableKeys
  /** Reads what a module loaded at run time reaches; the aliases of the tokens found there. */
  readModule?: (entry: unknown) => Promise<TokenAliases>
}

/** The Fastify context a binding's FASTIFY dependency gets: registration owns them. */
export type ContextOf = (binding: Binding) => FastifyInstance | undefined

const builtins = new Map<Token, Builtin>([[REQUEST, 'request'], [FASTIFY, 'fastify'], [INQUIRER, 'inquirer']])

// A built-in token: REQUEST, FASTIFY or INQUIRER, or a class marked as one (Reflector, ModuleRef, of either build of the package).
function builtinOf (token: Token): Builtin | undefined {
  if (typeof token !== 'function') return builtins.get(token)
  return Object.hasOwn(token, kBuiltinToken) ? (token as unknown as Record<symbol, Builtin>)[kBuiltinToken] : undefined
}

/**
 * What request-scoped instances are kept on: a request, or a context of no request (a ContextId
 * of ContextIdFactory.create()).
 */
/** A controller as the container binds it: its module, scope, and the enhancer classes it uses, in order. */
export interface ControllerUse {
  module: ModuleNode
  cls: Type
  scope?: 'DEFAULT' | 'REQUEST'
  enhancers: Type[]
}

type ScopeHolder = object & { [kRequestScope]?: Map<Binding, Box | Promise<Box>> }
type RequestWithScope = FastifyRequest & ScopeHolder

export class Container implements Lookups, LazyHost {
  readonly graph: ModuleGraph
  readonly reflector = new Reflector()
  /** What `ApplicationConfig` injects: the registration's options, read only. */
  applicationConfig = new ApplicationConfig()
  #created: Array<{ binding: Binding, instance: unknown }> | undefined = []
  readonly #declared = new Map<ModuleNode, Map<Token, Binding>>()
  readonly #adHoc = new Map<ModuleNode, Map<Token, Binding>>()
  readonly #overrides = new Map<Token, ProviderDefinition>()
  readonly #usedOverrides = new Set<Token>()
  readonly #all: Binding[] = []
  readonly #seed: ((binding: Binding) => Box | undefined) | undefined
  #contextOf: ContextOf = () => undefined
  // Each module's place in init order (deepest imports first), from bindApplication().
  #rank = new Map<ModuleNode, number>()
  #finalized = false
  #applicationBound = false
  readonly #aliases = new Map<Token, Token | Binding>()
  readonly #readClass: ((cls: Function) => void) | undefined
  readonly #discoverableKeys: DiscoverableKeys | undefined
  // The discovery view, made the first time something injects it.
  #discovery: { modules: ModulesContainer, service?: DiscoveryService, scanner?: MetadataScanner } | undefined

  readonly #mocker: ((token: unknown) => unknown) | undefined
  readonly #readModule: ForeignMetadata['readModule']
  #lazyLoader: ApplicationLazyLoader | undefined
  /** The instances of the lifecycle, in init order; modules loaded later add theirs. */
  lifecycleTargets: HookTarget[] = []

  constructor (graph: ModuleGraph, overrides: Provider[] = [], seed?: (binding: Binding) => Box | undefined, foreign?: ForeignMetadata, mocker?: (token: unknown) => unknown) {
    this.#mocker = mocker
    this.graph = graph
    this.#seed = seed
    this.#readClass = foreign?.readClass
    this.#discoverableKeys = foreign?.discoverableKeys
    this.#readModule = foreign?.readModule
    this.#addAliases(foreign?.aliases)
    overrides.forEach((provider, i) => {
      const definition = normalizeProvider(provider, `overrides[${i}]`)
      this.#overrides.set(definition.token, definition)
    })
    this.#declare(graph.modules)
  }

  #addAliases (aliases: TokenAliases | undefined): void {
    for (const [token, target] of aliases ?? []) {
      if (this.#aliases.has(token)) continue
      if (typeof target !== 'object' || target === null) {
        this.#aliases.set(token, target)
        continue
      }
      // Said to depend on FASTIFY, as it holds this application's Fastify app: a later build of the
      // same graph (testing's) makes its own instead of reusing this one.
      const binding = this.#binding(this.graph.root, { token, useFactory: () => target.useValue, inject: [FASTIFY], scope: 'DEFAULT' }, 'provider')
      this.#aliases.set(token, binding)
      this.#link(binding)
    }
  }

  // Binds the modules' providers, then links them once all are declared. The bindings are listed
  // as they are made (the order of #declared's maps) and walked with indexed loops (plugin/README.md).
  #declare (modules: ModuleNode[]): void {
    const start = this.#all.length
    for (let m = 0; m < modules.length; m++) {
      const module = modules[m]
      const declared = new Map<Token, Binding>()
      module.providers.forEach((definition, token) => {
        declared.set(token, this.#binding(module, this.#override(token) ?? definition, 'provider'))
      })
      this.#declared.set(module, declared)
    }
    const all = this.#all
    for (let i = start; i < all.length; i++) this.#link(all[i])
  }

  /** Reads NestJS's metadata of what a module loaded at run time reaches, when the application reads NestJS's. */
  async readForeign (entry: unknown): Promise<void> {
    if (this.#readModule !== undefined) this.#addAliases(await this.#readModule(entry))
  }

  /**
   * Binds modules loaded at run time (LazyModuleLoader): their providers and module classes,
   * checked with the rest, then builds their singletons (what they import that is built is
   * reused). If anything fails, nothing of them stays bound. Their instances, in creation order.
   */
  async addModules (modules: ModuleNode[]): Promise<Array<{ binding: Binding, instance: unknown }>> {
    const start = this.#all.length
    this.#finalized = false
    this.#created = []
    try {
      this.#declare(modules)
      const order = [...modules].sort((a, b) => b.distance - a.distance || a.order - b.order)
      for (let i = 0; i < order.length; i++) {
        this.moduleClass(order[i])
        this.#rank.set(order[i], this.#rank.size)
      }
      this.finalize()
      await this.instantiate()
      return this.takeCreated()
    } catch (error) {
      this.#all.length = start
      for (const module of modules) {
        this.#declared.delete(module)
        this.#adHoc.delete(module)
        this.#rank.delete(module)
        this.#moduleRefs.delete(module)
      }
      this.#created = undefined
      this.#finalized = true
      throw error
    }
  }

  /**
   * Binds what the routes use, before anything is planned and in the order they are declared:
   * the global enhancer classes (resolved in the root module), each controller with its guard,
   * pipe, interceptor and filter classes, then the module classes.
   */
  bindApplication (globals: unknown[], controllers: ControllerUse[], modules: ModuleNode[]): void {
    // Indexed loops: startup code (plugin/README.md).
    for (let i = 0; i < globals.length; i++) if (typeof globals[i] === 'function') this.enhancer(this.graph.root, globals[i] as Type)
    for (let i = 0; i < controllers.length; i++) {
      const { module, cls, scope, enhancers } = controllers[i]
      this.controller(module, cls, scope)
      for (let c = 0; c < enhancers.length; c++) this.enhancer(module, enhancers[c])
    }
    for (let i = 0; i < modules.length; i++) this.moduleClass(modules[i])
    this.#rank = new Map(modules.map((module, i) => [module, i]))
    this.#applicationBound = true
  }

  /**
   * A class known only once the application is built (middleware a module's configure() applies),
   * bound like an enhancer; finalize() and instantiate() run again before it is used.
   */
  lateEnhancer (module: ModuleNode, cls: Type): Binding {
    this.#finalized = false
    return this.enhancer(module, cls)
  }

  /** The binding of a controller class in its module; a REQUEST one is built per request. */
  controller (module: ModuleNode, cls: Type, scope: 'DEFAULT' | 'REQUEST' = 'DEFAULT'): Binding {
    const binding = this.#adHocBinding(module, cls, 'controller')
    // Its scope is @Controller's, not @Injectable's; finalize() spreads it like a provider's.
    if (binding.definition.scope !== scope) binding.definition = { ...binding.definition, scope }
    binding.transient = false
    return binding
  }

  /** The binding of a module class (its constructor may inject providers). */
  moduleClass (module: ModuleNode): Binding {
    return this.#adHocBinding(module, module.cls, 'module')
  }

  /**
   * A guard, pipe, interceptor or filter class, resolved in `module`: a provider of that
   * token visible there if any, else built there like a provider.
   */
  enhancer (module: ModuleNode, cls: Type): Binding {
    const visible = this.#lookup(module, cls)
    if (visible instanceof Object) return visible
    return this.#adHocBinding(module, cls, 'enhancer')
  }

  #adHocBinding (module: ModuleNode, cls: Type, kind: BindingKind): Binding {
    let bindings = this.#adHoc.get(module)
    if (!bindings) this.#adHoc.set(module, bindings = new Map())
    let binding = bindings.get(cls)
    if (!binding) {
      // Scopes and cycles are only known for what was bound before finalize().
      if (this.#finalized) throw new Error(`Internal error: ${cls.name} is bound in ${module.name} after the container was finalized.`)
      // The NestJS reader has read every class the modules reach (what bindApplication() binds)
      // before the scan: only a class met later (a middleware class) is new to it.
      if (this.#applicationBound) this.#readClass?.(cls)
      // Only providers and enhancers can be overridden: a controller's routes are its own methods.
      const definition = kind === 'module'
        ? { token: cls, useClass: cls, scope: 'DEFAULT' as const }
        : (kind === 'enhancer' ? this.#override(cls) : undefined) ?? normalizeProvider(cls, module.name)
      binding = this.#binding(module, definition, kind)
      bindings.set(cls, binding)
      this.#link(binding)
    }
    return binding
  }

  #override (token: Token): ProviderDefinition | undefined {
    const definition = this.#overrides.get(token)
    if (definition) this.#usedOverrides.add(token)
    return definition
  }

  #binding (module: ModuleNode, definition: ProviderDefinition, kind: BindingKind): Binding {
    const binding = newBinding(module, definition, kind)
    this.#all.push(binding)
    return binding
  }

  // What `token` means inside `module`: a builtin, a binding, or nothing.
  #lookup (module: ModuleNode, token: Token): Binding | Builtin | undefined {
    const alias = this.#aliases.get(token)
    if (typeof alias === 'object') return alias
    if (alias !== undefined) token = alias
    const builtin = builtinOf(token)
    if (builtin) return builtin
    const own = this.#declared.get(module)?.get(token)
    if (own) return own
    const seen = new Set<ModuleNode>()
    for (const imported of module.imports) {
      const found = this.#exported(imported, token, seen)
      if (found) return found
    }
    for (const global of this.graph.globals) {
      if (global === module) continue
      const found = this.#exported(global, token, seen)
      if (found) return found
    }
    return undefined
  }

  #exported (module: ModuleNode, token: Token, seen: Set<ModuleNode>): Binding | undefined {
    if (seen.has(module)) return undefined
    seen.add(module)
    if (module.exports.has(token)) return this.#declared.get(module)!.get(token)
    for (const reexported of module.exportedModules) {
      const found = this.#exported(reexported, token, seen)
      if (found) return found
    }
    return undefined
  }

  #link (binding: Binding): void {
    declareDependencies(binding)
    // Resolved in place: each dependency was made for this binding alone.
    const deps = binding.deps
    for (let i = 0; i < deps.length; i++) {
      const dep = deps[i]
      const found = this.#lookup(binding.module, dep.token)
      if (found === undefined) {
        if (dep.optional) continue
        const mock = this.#mock(binding, dep)
        if (mock === undefined) throw this.#unknownDependency(binding, dep)
        dep.binding = mock
        continue
      }
      // A transient is built for one consumer, a request-scoped provider for the first of its request.
      if (found === 'inquirer' && !binding.transient && binding.definition.scope !== 'REQUEST') {
        const what = dep.property === undefined ? `the constructor parameter at index [${dep.index}]` : `the property ${JSON.stringify(String(dep.property))}`
        const cls = binding.definition.useClass?.name ?? bindingName(binding)
        throw new ERR_INVALID_PROVIDER(`${bindingName(binding)} in module ${binding.module.name} injects INQUIRER (${what}), but is neither transient nor request-scoped: ` +
          `a singleton is built for no one consumer. Add @Injectable({ scope: Scope.TRANSIENT }) (or Scope.REQUEST) to ${cls}.`)
      }
      if (typeof found === 'string') dep.builtin = found
      else dep.binding = found
    }
  }

  // A stand-in the testing module's mocker gives for this one place of injection, as NestJS asks it.
  #mock (binding: Binding, dep: Dependency): Binding | undefined {
    const value = this.#mocker?.(dep.token)
    if (!value) return undefined
    const mock = newBinding(binding.module, { token: dep.token, useValue: value, scope: 'DEFAULT' }, 'provider')
    this.#link(mock)
    return mock
  }

  #unknownDependency (binding: Binding, dep: Dependency): Error {
    const where = binding.module.name
    let fix = `Add ${tokenName(dep.token)} to ${where}'s providers, or import a module that exports it.`
    const provider = this.graph.modules.find((m) => m.providers.has(dep.token))
    if (provider && provider !== binding.module) {
      fix = provider.exports.has(dep.token)
        ? `${provider.name} exports it: add ${provider.name} to ${where}'s imports.`
        : `${provider.name} provides it but does not export it: add it to ${provider.name}'s exports and import ${provider.name} into ${where}.`
    }
    return new ERR_UNKNOWN_DEPENDENCY(`Cannot resolve ${tokenName(dep.token)} ${dependencyPlace(dep)} of ${bindingName(binding)} in module ${where}. ${fix}`)
  }

  /** Checks the whole graph once every binding is known: overrides, cycles, scopes (again after late bindings). */
  finalize (): void {
    for (const token of this.#overrides.keys()) {
      if (!this.#usedOverrides.has(token)) {
        const controller = this.graph.modules.find((module) => module.controllers.includes(token as Type))
        const why = controller
          ? `${tokenName(token)} is a controller of ${controller.name}; controllers cannot be overridden, override the providers it injects instead.`
          : 'Check the token or remove the override.'
        throw new ERR_UNKNOWN_OVERRIDE(`overrides: no module declares ${tokenName(token)}, and no guard, pipe, interceptor or filter uses it; nothing would be replaced. ${why}`)
      }
    }
    checkDependencies(this.#all)
    this.#finalized = true
  }

  /**
   * Builds every singleton (and the transients they hold), dependencies first, once every context
   * is registered: `contextOf` is given on the first call; a later one builds what was bound late.
   */
  async instantiate (contextOf: ContextOf = this.#contextOf): Promise<void> {
    this.#contextOf = contextOf
    // Module by module, imports first, as NestJS has them: a provider an imported module builds
    // for its side effect (@nestjs/config's loader filling ConfigService) runs before the
    // importer's providers read what it fills.
    const rank = (binding: Binding) => this.#rank.get(binding.module) ?? this.#rank.size
    for (const binding of [...this.#all].sort((a, b) => rank(a) - rank(b))) {
      if (!binding.perRequest && !binding.transient) await this.#static(binding)
    }
  }

  /** Static instances in creation order, for lifecycle hooks; later (per-request) builds are not recorded. */
  takeCreated (): Array<{ binding: Binding, instance: unknown }> {
    const created = this.#created ?? []
    this.#created = undefined
    return created
  }

  // Values travel boxed so a thenable instance (a Fastify instance is one) is never adopted by a promise.
  #static (binding: Binding): Promise<Box> {
    if (binding.transient) return promised(() => this.#construct(binding, undefined, undefined))
    if (binding.pending !== undefined) return binding.pending
    // Gathering its dependencies came back to it: a forwardRef() cycle that finalize() allowed.
    if (binding.building) return Promise.resolve({ value: this.#early(binding) })
    binding.building = true
    try {
      binding.pending = promised(() => this.#seeded(binding) ?? this.#construct(binding, undefined, undefined)).then((box) => {
        binding.instance = box.value
        binding.built = true
        return box
      })
    } finally {
      binding.building = false
    }
    return binding.pending
  }

  // The object consumers in a cycle get before the binding is built; its instance is copied onto it.
  #early (binding: Binding): object {
    const { definition } = binding
    if (definition.useExisting !== undefined) return this.#early(binding.deps[0].binding!)
    binding.early ??= Object.create(definition.useClass!.prototype) as object
    return binding.early
  }

  // What an earlier build of the same graph made (testing), recorded as if built here.
  #seeded (binding: Binding): Box | undefined {
    const box = this.#seed?.(binding)
    return box === undefined ? undefined : this.#made(binding, box.value, undefined)
  }

  /** Every singleton built so far (after instantiate(): all of them). */
  singletons (): Binding[] {
    return this.#all.filter((binding) => binding.pending !== undefined && !binding.perRequest && !binding.transient)
  }

  // Sync when every dependency and the factory are, so a request-scoped build costs no promise.
  // `inquirer`: the binding a transient is built for.
  #construct (binding: Binding, request: ScopeHolder | undefined, inquirer: Binding | undefined): Box | Promise<Box> {
    const boxes = binding.deps.map((dep) => this.#value(dep, binding, request, inquirer))
    return andThen(whenAll(boxes), (ready) => this.#build(binding, ready, request))
  }

  #build (binding: Binding, boxes: Box[], request: ScopeHolder | undefined): Box | Promise<Box> {
    const { definition } = binding
    if (definition.useExisting !== undefined) return boxes[0]
    const args = binding.params === boxes.length ? boxes.map((box) => box.value) : boxes.slice(0, binding.params).map((box) => box.value)
    let instance: unknown
    try {
      if (definition.useFactory) instance = definition.useFactory(...args)
      else if (definition.useClass) {
        const Class = definition.useClass
        instance = new Class(...args)
        if (binding.early !== undefined) instance = Object.assign(binding.early, instance)
        // Properties are set once constructed; a missing optional one keeps its initial value.
        for (let i = binding.params; i < boxes.length; i++) {
          const value = boxes[i].value
          if (value !== undefined && value !== null) (instance as Record<string | symbol, unknown>)[binding.deps[i].property!] = value
        }
      } else instance = definition.useValue
    } catch (error) {
      throw this.#failed(binding, request, error)
    }
    if (definition.useFactory && isThenable(instance)) {
      return Promise.resolve(instance).then((value) => this.#made(binding, value, request), (error) => { throw this.#failed(binding, request, error) })
    }
    return this.#made(binding, instance, request)
  }

  #made (binding: Binding, instance: unknown, request: ScopeHolder | undefined): Box {
    if (request === undefined) this.#created?.push({ binding, instance })
    return { value: instance }
  }

  // At start, name what failed; at request time the error stays as thrown, for the filters.
  #failed (binding: Binding, request: ScopeHolder | undefined, error: unknown): unknown {
    if (request !== undefined) return error
    return new ERR_PROVIDER_FAILED(`${bindingName(binding)} (${binding.kind} of ${binding.module.name}) could not be built: ${(error as Error)?.message ?? String(error)}. Fix its factory or constructor; the error it threw is the cause.`, { cause: error })
  }

  #value (dep: Dependency, consumer: Binding, request: ScopeHolder | undefined, inquirer: Binding | undefined): Box | Promise<Box> {
    const { binding, builtin } = dep
    if (builtin !== undefined) {
      if (builtin === 'request') return { value: requestOf(request) }
      if (builtin === 'fastify') return { value: this.#contextOf(consumer) }
      if (builtin === 'reflector') return { value: this.reflector }
      if (builtin === 'applicationConfig') return { value: this.applicationConfig }
      if (builtin === 'moduleRef') return { value: this.moduleRef(consumer.module) }
      if (builtin === 'inquirer') return { value: inquirer === undefined ? undefined : this.#inquirer(inquirer) }
      if (builtin === 'lazyModuleLoader') return { value: this.lazyModuleLoader() }
      return { value: this.#discoveryValue(builtin) }
    }
    if (binding === undefined) return { value: undefined }
    // A transient is built for its consumer, with the request at hand (then it is not recorded as
    // static). Built for another transient, its INQUIRER is the one that started the chain, as in NestJS.
    if (binding.transient) {
      const chain = consumer.transient && inquirer !== undefined ? inquirer : consumer
      return request === undefined ? promised(() => this.#construct(binding, undefined, chain)) : this.#construct(binding, request, chain)
    }
    // A request-scoped provider's INQUIRER is the consumer that first asks for it in the request.
    return request === undefined ? this.#static(binding) : this.#scoped(binding, request, false, consumer)
  }

  // What INQUIRER injects for a consumer: an object of its class, as NestJS gives (read its constructor).
  #inquirer (consumer: Binding): object | undefined {
    const cls = consumer.definition.useClass
    if (cls === undefined) return undefined
    consumer.inquirer ??= consumer.early ?? Object.create(cls.prototype) as object
    return consumer.inquirer
  }

  #scoped (binding: Binding, request: ScopeHolder, keepTransient = false, inquirer?: Binding): Box | Promise<Box> {
    if (binding.transient && !keepTransient) return this.#construct(binding, request, undefined)
    if (!binding.perRequest && !binding.transient) return { value: binding.instance }
    let cache = request[kRequestScope]
    if (cache === undefined) request[kRequestScope] = cache = new Map()
    let box = cache.get(binding)
    if (box === undefined) {
      box = this.#construct(binding, request, inquirer)
      cache.set(binding, box)
    }
    return box
  }

  /** An instance for one request: singletons as they are, request-scoped ones cached on the request. */
  resolveIn (binding: Binding, request: ScopeHolder): unknown {
    if (!binding.perRequest && !binding.transient) return binding.instance
    return promised(() => this.#scoped(binding, request)).then((box) => box.value)
  }

  /** A new instance of a transient binding for one place of use outside any request (a hook, a middleware, an enhancer). */
  transientInstance (binding: Binding): Promise<unknown> {
    return promised(() => this.#construct(binding, undefined, undefined)).then((box) => box.value)
  }

  /** For the request pipeline: resolveIn's instance boxed, a promise only when something on the way is async. */
  scoped (binding: Binding, request: RequestWithScope): Box | Promise<Box> {
    return this.#scoped(binding, request)
  }

  /** The binding of a provider `module` declares (an APP_* one included), by its token. */
  declared (module: ModuleNode, token: Token): Binding {
    return this.#declared.get(module)!.get(token)!
  }

  // Any module's binding of `token`: those the root module sees first.
  #find (token: Token): Binding | undefined {
    const visible = this.#lookup(this.graph.root, token)
    if (visible instanceof Object) return visible
    for (const module of this.graph.modules) {
      const found = this.#own(module, token)
      if (found) return found
    }
    return undefined
  }

  // A builtin, also under a token that stands for one (@nestjs/core's Reflector).
  #builtin (token: Token): Builtin | undefined {
    const alias = this.#aliases.get(token)
    return builtinOf(alias !== undefined && typeof alias !== 'object' ? alias : token)
  }

  // What `module` itself declares: its providers, and the controllers, enhancers and class bound in it.
  #own (module: ModuleNode, token: Token): Binding | undefined {
    return this.#declared.get(module)?.get(token) ?? this.#adHoc.get(module)?.get(token)
  }

  // DiscoveryService, ModulesContainer or MetadataScanner: one each per application, made when first injected.
  #discoveryValue (builtin: 'discovery' | 'modulesContainer' | 'metadataScanner'): unknown {
    const discovery = this.#discovery ??= { modules: modulesView(this.graph.modules, this.graph.globals, (module) => this.#moduleBindings(module)) }
    if (builtin === 'modulesContainer') return discovery.modules
    if (builtin === 'metadataScanner') return (discovery.scanner ??= new MetadataScanner())
    return (discovery.service ??= new DiscoveryService(discovery.modules, this.#discoverableKeys))
  }

  // What discovery shows of a module: its class's binding, its providers, its controllers (in the order they are listed).
  #moduleBindings (module: ModuleNode): ModuleBindings {
    const adHoc = this.#adHoc.get(module)
    const controllers: Binding[] = []
    for (let i = 0; i < module.controllers.length; i++) {
      const binding = adHoc?.get(module.controllers[i])
      if (binding !== undefined) controllers.push(binding)
    }
    return { moduleClass: adHoc?.get(module.cls), providers: this.#declared.get(module) ?? new Map(), controllers, inContext: (binding, contextId) => this.inContext(binding, contextId, true) }
  }

  readonly #moduleRefs = new Map<ModuleNode, ModuleReference>()

  /** The application's LazyModuleLoader, made when first asked for. */
  lazyModuleLoader (): ApplicationLazyLoader {
    return (this.#lazyLoader ??= new ApplicationLazyLoader(this))
  }

  /** The ModuleRef `module`'s classes are given. */
  moduleRef (module: ModuleNode): ModuleReference {
    let ref = this.#moduleRefs.get(module)
    if (!ref) this.#moduleRefs.set(module, ref = new ModuleReference(this, module))
    return ref
  }

  /** What `token` is from `module` for a ModuleRef or app.container: a builtin's value, or a binding. */
  find (module: ModuleNode, token: Token, strict: boolean): Box | Binding | undefined {
    const builtin = this.#builtin(token)
    if (builtin === 'reflector') return { value: this.reflector }
    if (builtin === 'moduleRef') return { value: this.moduleRef(module) }
    if (builtin === 'applicationConfig') return { value: this.applicationConfig }
    if (builtin === 'lazyModuleLoader') return { value: this.lazyModuleLoader() }
    if (builtin === 'discovery' || builtin === 'modulesContainer' || builtin === 'metadataScanner') return { value: this.#discoveryValue(builtin) }
    return strict ? this.#own(module, token) : this.#visible(module, token) ?? this.#find(token)
  }

  /** Every binding of `token`, one per module declaring it, in module order (a builtin's value alone). */
  findAll (token: Token): Array<Box | Binding> {
    const builtin = this.#builtin(token)
    if (builtin !== undefined && builtin !== 'request' && builtin !== 'fastify' && builtin !== 'inquirer') return [this.find(this.graph.root, token, false)!]
    const all: Array<Box | Binding> = []
    for (const module of this.graph.modules) {
      const found = this.#own(module, token)
      if (found !== undefined) all.push(found)
    }
    return all
  }

  /** The module that declares `token` itself, if any. */
  declaring (token: Token): ModuleNode | undefined {
    return this.graph.modules.find((module) => this.#own(module, token) !== undefined)
  }

  /** A singleton's instance, built first if need be. */
  async singleton (binding: Binding): Promise<unknown> {
    return (await this.#static(binding)).value
  }

  /** A request-scoped or transient instance for a context, a new context if none. */
  async inContext (binding: Binding, contextId: ContextId | undefined, keepTransient: boolean): Promise<unknown> {
    const holder = contextHolder(contextId ?? ContextIdFactory.create())
    return (await promised(() => this.#scoped(binding, holder, keepTransient))).value
  }

  /** An instance of a class no module provides, built in `module`: never found by get(), never given lifecycle hooks. */
  async create (module: ModuleNode, type: Type, contextId: ContextId | undefined): Promise<unknown> {
    const binding = newBinding(module, { token: type, useClass: type, scope: 'DEFAULT' }, 'provider')
    this.#link(binding)
    return (await promised(() => this.#construct(binding, contextHolder(contextId ?? ContextIdFactory.create()), undefined))).value
  }

  #visible (module: ModuleNode, token: Token): Binding | undefined {
    const found = this.#lookup(module, token)
    return found instanceof Object ? found : this.#adHoc.get(module)?.get(token)
  }
}
