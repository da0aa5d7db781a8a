import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Container as PublicContainer, InjectionToken, Provider, Type } from '../types/index.js'
import { type ModuleGraph, type ModuleNode, type ProviderDefinition, type Token, normalizeProvider } from './scanner.js'
import { constructorOwner, injectTokens, optionalParams } from './injectable.js'
import { Reflector } from './reflector.js'
import { FASTIFY, REQUEST } from './tokens.js'
import { kApplication, kBuiltinToken, kRequestScope } from './symbols.js'
import {
  ERR_CIRCULAR_DEPENDENCY, ERR_MISSING_METADATA, ERR_SCOPED_PROVIDER, ERR_UNKNOWN_DEPENDENCY,
  ERR_UNKNOWN_OVERRIDE, ERR_UNKNOWN_TOKEN, ERR_PROVIDER_FAILED
} from './errors.js'
import { tokenName } from './describe.js'
import { enhancerClasses, type ControllerScan } from './controller-scan.js'
import { andThen, isThenable, promised, whenAll } from './thenable.js'

type Builtin = 'request' | 'fastify' | 'reflector'

interface Dependency {
  index: number
  token: Token
  optional: boolean
  binding?: Binding
  builtin?: Builtin
}

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
}

export type BindingKind = 'provider' | 'controller' | 'enhancer' | 'module'

/** A provider, controller, enhancer or module class as declared in one module. */
export interface Binding {
  token: Token
  definition: ProviderDefinition
  module: ModuleNode
  kind: BindingKind
  deps: Dependency[]
  /** Built once per request: declared REQUEST-scoped, or depends on something that is. */
  perRequest: boolean
  transient: boolean
  instance: unknown
  pending?: Promise<Box>
}

/** The Fastify context a binding's FASTIFY dependency gets: registration owns them. */
export type ContextOf = (binding: Binding) => FastifyInstance | undefined

const builtins = new Map<Token, Builtin>([[REQUEST, 'request'], [FASTIFY, 'fastify']])

// A built-in token: REQUEST or FASTIFY, or a class marked as one (Reflector, of either build of the package).
function builtinOf (token: Token): Builtin | undefined {
  if (typeof token !== 'function') return builtins.get(token)
  return Object.hasOwn(token, kBuiltinToken) ? (token as unknown as Record<symbol, Builtin>)[kBuiltinToken] : undefined
}
const erased = new Set<unknown>([undefined, Object, Function])

export interface Box { value: unknown }

type RequestWithScope = FastifyRequest & { [kRequestScope]?: Map<Binding, Box | Promise<Box>> }

export class Container {
  readonly graph: ModuleGraph
  readonly reflector = new Reflector()
  #created: Array<{ binding: Binding, instance: unknown }> | undefined = []
  readonly #declared = new Map<ModuleNode, Map<Token, Binding>>()
  readonly #adHoc = new Map<ModuleNode, Map<Token, Binding>>()
  readonly #overrides = new Map<Token, ProviderDefinition>()
  readonly #usedOverrides = new Set<Token>()
  readonly #all: Binding[] = []
  readonly #seed: ((binding: Binding) => Box | undefined) | undefined
  #contextOf: ContextOf = () => undefined
  #finalized = false
  readonly #aliases = new Map<Token, Token | Binding>()
  readonly #readClass: ((cls: Function) => void) | undefined

  constructor (graph: ModuleGraph, overrides: Provider[] = [], seed?: (binding: Binding) => Box | undefined, foreign?: ForeignMetadata) {
    this.graph = graph
    this.#seed = seed
    this.#readClass = foreign?.readClass
    for (const [token, target] of foreign?.aliases ?? []) {
      if (typeof target !== 'object' || target === null) {
        this.#aliases.set(token, target)
        continue
      }
      // Said to depend on FASTIFY, as it holds this application's Fastify app: a later build of the
      // same graph (testing's) makes its own instead of reusing this one.
      const binding = this.#binding(graph.root, { token, useFactory: () => target.useValue, inject: [FASTIFY], scope: 'DEFAULT' }, 'provider')
      this.#aliases.set(token, binding)
      this.#link(binding)
    }
    overrides.forEach((provider, i) => {
      const definition = normalizeProvider(provider, `overrides[${i}]`)
      this.#overrides.set(definition.token, definition)
    })
    for (const module of graph.modules) {
      const declared = new Map<Token, Binding>()
      for (const [token, definition] of module.providers) {
        declared.set(token, this.#binding(module, this.#override(token) ?? definition, 'provider'))
      }
      this.#declared.set(module, declared)
    }
    for (const bindings of this.#declared.values()) for (const binding of bindings.values()) this.#link(binding)
  }

  /**
   * Binds what the routes use, before anything is planned and in the order they are declared:
   * the global enhancer classes (resolved in the root module), each controller with its guard,
   * pipe, interceptor and filter classes, then the module classes.
   */
  bindApplication (globals: unknown[], controllers: ControllerScan[], modules: ModuleNode[]): void {
    for (const entry of globals) if (typeof entry === 'function') this.enhancer(this.graph.root, entry as Type)
    for (const scan of controllers) {
      this.controller(scan.module, scan.cls, scan.definition.scope)
      for (const cls of enhancerClasses(scan)) this.enhancer(scan.module, cls)
    }
    for (const module of modules) this.moduleClass(module)
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
    binding.definition = { ...binding.definition, scope }
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
      this.#readClass?.(cls)
      // Only providers and enhancers can be overridden: a controller's routes are its own methods.
      const definition = kind === 'module'
        ? { token: cls, useClass: cls, scope: 'DEFAULT' as const }
        : (kind === 'enhancer' ? this.#override(cls) : undefined) ?? normalizeProvider(cls, `${module.name}`)
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
    const binding: Binding = {
      token: definition.token,
      definition,
      module,
      kind,
      deps: [],
      perRequest: false,
      transient: definition.scope === 'TRANSIENT',
      instance: undefined
    }
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
    binding.deps = this.#dependencies(binding).map((dep) => {
      const found = this.#lookup(binding.module, dep.token)
      if (found === undefined) {
        if (dep.optional) return dep
        throw this.#unknownDependency(binding, dep)
      }
      return typeof found === 'string' ? { ...dep, builtin: found } : { ...dep, binding: found }
    })
  }

  #dependencies (binding: Binding): Dependency[] {
    const { definition } = binding
    if (definition.useExisting !== undefined) return [{ index: 0, token: definition.useExisting, optional: false }]
    if (definition.useFactory) {
      return (definition.inject ?? []).map((entry, index) => {
        const token = typeof entry === 'object' && entry !== null && 'token' in entry ? entry.token : entry as Token
        const optional = typeof entry === 'object' && entry !== null && 'token' in entry && entry.optional === true
        return { index, token, optional }
      })
    }
    if (!definition.useClass) return []
    const cls = definition.useClass
    const types: unknown[] | undefined = Reflect.getOwnMetadata('design:paramtypes', constructorOwner(cls))
    const tokens = injectTokens(cls)
    const optional = optionalParams(cls)
    const count = Math.max(types?.length ?? 0, constructorOwner(cls).length, ...[...tokens.keys()].map((i) => i + 1))
    const deps: Dependency[] = []
    for (let index = 0; index < count; index++) {
      const token = tokens.get(index) ?? types?.[index]
      // An optional parameter typed by an interface (NestJS's pipes take their options so) gets undefined.
      if (optional.has(index) && types !== undefined && !tokens.has(index) && erased.has(token)) {
        deps.push({ index, token: token as Token, optional: true })
        continue
      }
      if (erased.has(token) || !['function', 'string', 'symbol'].includes(typeof token)) {
        throw new ERR_MISSING_METADATA(missingMetadata(binding, index, types !== undefined, token))
      }
      deps.push({ index, token: token as Token, optional: optional.has(index) })
    }
    return deps
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
    return new ERR_UNKNOWN_DEPENDENCY(`Cannot resolve ${tokenName(dep.token)} at index [${dep.index}] of ${bindingName(binding)} in module ${where}. ${fix}`)
  }

  /** Checks the whole graph once every binding is known: overrides, cycles, scopes. */
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
    const state = new Map<Binding, 'visiting' | 'done'>()
    const path: Binding[] = []
    const visit = (binding: Binding): void => {
      const seen = state.get(binding)
      if (seen === 'done') return
      if (seen === 'visiting') {
        const members = path.slice(path.indexOf(binding)).concat(binding)
        const modules = new Set(members.map((member) => member.module))
        const cycle = modules.size === 1
          ? `${members.map(bindingName).join(' -> ')} in module ${binding.module.name}`
          : members.map((member) => `${bindingName(member)} (${member.module.name})`).join(' -> ')
        throw new ERR_CIRCULAR_DEPENDENCY(`Circular dependency: ${cycle}. Break the cycle, for example by moving what both need into a third provider.`)
      }
      state.set(binding, 'visiting')
      path.push(binding)
      for (const dep of binding.deps) if (dep.binding) visit(dep.binding)
      path.pop()
      state.set(binding, 'done')
      binding.perRequest = binding.definition.scope === 'REQUEST' ||
        binding.deps.some((dep) => dep.builtin === 'request' || dep.binding?.perRequest === true)
    }
    for (const binding of this.#all) visit(binding)
    this.#finalized = true
  }

  /**
   * Builds every singleton (and the transients they hold), dependencies first, once every context
   * is registered: `contextOf` is given on the first call; a later one builds what was bound late.
   */
  async instantiate (contextOf: ContextOf = this.#contextOf): Promise<void> {
    this.#contextOf = contextOf
    for (const binding of [...this.#all]) {
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
    if (binding.transient) return promised(() => this.#construct(binding, undefined))
    binding.pending ??= promised(() => this.#seeded(binding) ?? this.#construct(binding, undefined)).then((box) => {
      binding.instance = box.value
      return box
    })
    return binding.pending
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
  #construct (binding: Binding, request: RequestWithScope | undefined): Box | Promise<Box> {
    const boxes = binding.deps.map((dep) => this.#value(dep, binding, request))
    return andThen(whenAll(boxes), (ready) => this.#build(binding, ready, request))
  }

  #build (binding: Binding, boxes: Box[], request: RequestWithScope | undefined): Box | Promise<Box> {
    const { definition } = binding
    if (definition.useExisting !== undefined) return boxes[0]
    const args = boxes.map((box) => box.value)
    let instance: unknown
    try {
      if (definition.useFactory) instance = definition.useFactory(...args)
      else if (definition.useClass) {
        const Class = definition.useClass
        instance = new Class(...args)
      } else instance = definition.useValue
    } catch (error) {
      throw this.#failed(binding, request, error)
    }
    if (definition.useFactory && isThenable(instance)) {
      return Promise.resolve(instance).then((value) => this.#made(binding, value, request), (error) => { throw this.#failed(binding, request, error) })
    }
    return this.#made(binding, instance, request)
  }

  #made (binding: Binding, instance: unknown, request: RequestWithScope | undefined): Box {
    if (request === undefined) this.#created?.push({ binding, instance })
    return { value: instance }
  }

  // At start, name what failed; at request time the error stays as thrown, for the filters.
  #failed (binding: Binding, request: RequestWithScope | undefined, error: unknown): unknown {
    if (request !== undefined) return error
    return new ERR_PROVIDER_FAILED(`${bindingName(binding)} (${binding.kind} of ${binding.module.name}) could not be built: ${(error as Error)?.message ?? String(error)}. Fix its factory or constructor; the error it threw is the cause.`, { cause: error })
  }

  #value (dep: Dependency, consumer: Binding, request: RequestWithScope | undefined): Box | Promise<Box> {
    if (dep.builtin === 'request') return { value: request }
    if (dep.builtin === 'fastify') return { value: this.#contextOf(consumer) }
    if (dep.builtin === 'reflector') return { value: this.reflector }
    if (!dep.binding) return { value: undefined }
    return request === undefined ? this.#static(dep.binding) : this.#scoped(dep.binding, request)
  }

  #scoped (binding: Binding, request: RequestWithScope): Box | Promise<Box> {
    // A transient inside a request is built with the request at hand, so it is not recorded as static.
    if (binding.transient) return this.#construct(binding, request)
    if (!binding.perRequest) return { value: binding.instance }
    let cache = request[kRequestScope]
    if (cache === undefined) request[kRequestScope] = cache = new Map()
    let box = cache.get(binding)
    if (box === undefined) {
      box = this.#construct(binding, request)
      cache.set(binding, box)
    }
    return box
  }

  /** An instance for one request: singletons as they are, request-scoped ones cached on the request. */
  resolveIn (binding: Binding, request: RequestWithScope): unknown {
    if (!binding.perRequest && !binding.transient) return binding.instance
    return promised(() => this.#scoped(binding, request)).then((box) => box.value)
  }

  /** For the request pipeline: resolveIn's instance boxed, a promise only when something on the way is async. */
  scoped (binding: Binding, request: RequestWithScope): Box | Promise<Box> {
    return this.#scoped(binding, request)
  }

  #find (token: Token): Binding | undefined {
    const visible = this.#lookup(this.graph.root, token)
    if (visible instanceof Object) return visible
    for (const bindings of [...this.#declared.values(), ...this.#adHoc.values()]) {
      const found = bindings.get(token)
      if (found) return found
    }
    return undefined
  }

  #isReflector (token: Token): boolean {
    return builtinOf(this.#aliases.get(token) as Token ?? token) === 'reflector'
  }

  /** The object users reach as `app.container`; tokens carry no type at run time, hence the casts to T. */
  publicApi (): PublicContainer {
    const api: PublicContainer = {
      get: <T>(token: InjectionToken<T>): T => this.#publicGet(token) as T,
      resolve: async <T>(token: InjectionToken<T>, request?: FastifyRequest): Promise<T> => await this.#publicResolve(token, request) as T
    }
    // Marks the decoration as this plugin's, out of sight of enumeration.
    return Object.defineProperty(api, kApplication, { value: true })
  }

  #publicGet (token: Token): unknown {
    if (this.#isReflector(token)) return this.reflector
    const binding = this.#find(token)
    if (!binding) throw new ERR_UNKNOWN_TOKEN(`container.get(${tokenName(token)}): no module provides this token.`)
    if (binding.perRequest || binding.transient) {
      throw new ERR_SCOPED_PROVIDER(`container.get(${tokenName(token)}): ${bindingName(binding)} is ${binding.transient ? 'transient' : 'request-scoped'}; use await container.resolve(token, request) instead.`)
    }
    // app.container is decorated once every singleton is built: the instance is there.
    return binding.instance
  }

  #publicResolve (token: Token, request: FastifyRequest | undefined): unknown {
    if (this.#isReflector(token)) return this.reflector
    const binding = this.#find(token)
    if (!binding) throw new ERR_UNKNOWN_TOKEN(`container.resolve(${tokenName(token)}): no module provides this token.`)
    // Without a request, a fresh request context stands in (one instance per call).
    return this.resolveIn(binding, (request ?? {}) as RequestWithScope)
  }
}

export function bindingName (binding: Binding): string {
  const { definition } = binding
  return definition.useClass && definition.useClass !== binding.token
    ? `${tokenName(binding.token)} (useClass ${definition.useClass.name})`
    : tokenName(binding.token)
}

function missingMetadata (binding: Binding, index: number, hasTypes: boolean, type: unknown): string {
  const cls = binding.definition.useClass!
  const name = `${cls.name} in module ${binding.module.name}`
  // Compilers record parameter types only for decorated classes: an undecorated one is the cause whatever the compiler.
  const owner = constructorOwner(cls)
  if (!hasTypes && Reflect.getOwnMetadataKeys(owner).length === 0) {
    const undecorated = owner === cls ? `${cls.name} has no decorator` : `${owner.name}, whose constructor it inherits, has no decorator`
    return `${name} has a constructor parameter at index [${index}], but ${undecorated}, so no type was recorded for its parameters. ` +
      `Add @Injectable() to ${owner.name}: with tsc or SWC and "emitDecoratorMetadata": true that records them; ` +
      'under tsx or esbuild also name each token with @Inject(token).'
  }
  if (!hasTypes) {
    return `${name} has a constructor parameter at index [${index}] with no @Inject() and no type metadata. ` +
      'tsx and esbuild emit no decorator metadata; name the token: ' +
      'constructor(@Inject(SomeService) private readonly some: SomeService), or compile with tsc and "emitDecoratorMetadata": true.'
  }
  return `${name}: the constructor parameter at index [${index}] has the type ${type === undefined ? 'undefined' : tokenName(type)} at run time ` +
    '(an interface, a union, `import type`, or a class imported in a circular way). ' +
    `Name the token with @Inject(token) on that parameter of ${binding.definition.useClass!.name}.`
}
