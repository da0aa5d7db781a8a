import type { ContextId, InjectionToken, IntrospectionResult, ModuleRefGetOptions, Type } from '../../types/index.js'
import { registerRequest } from '../decorators/context-id.js'
import { kBuiltinToken } from '../util/symbols.js'
import type { ModuleNode } from './scanner.js'
import type { Token } from './providers.js'
import { bindingName, type Binding, type Box } from './binding.js'
import { ERR_INVALID_PROVIDER, ERR_SCOPED_PROVIDER, ERR_UNKNOWN_TOKEN } from '../util/errors.js'
import { describe, tokenName } from '../util/describe.js'

/**
 * Injected as `ModuleRef`: the providers of the application from the module that injects it.
 * `get` a singleton (`{ strict: true }`: only what that module declares), `resolve` a
 * request-scoped or transient one for a context, `create` an instance of a class that is not
 * a provider, its dependencies resolved in the module.
 */
export abstract class ModuleRef {
  abstract get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options: ModuleRefGetOptions & { each: true }): TResult[]
  abstract get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult
  abstract resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId: ContextId | undefined, options: ModuleRefGetOptions & { each: true }): Promise<TResult[]>
  abstract resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult>
  abstract create<T> (type: Type<T>, contextId?: ContextId): Promise<T>
  /** The provider's scope, with what it depends on counted: a singleton on a request-scoped provider is REQUEST. */
  abstract introspect<T = any> (token: InjectionToken<T>): IntrospectionResult
  /** Makes `request` what REQUEST injects into what is resolved with `contextId`. */
  abstract registerRequestByContextId<T = any> (request: T, contextId: ContextId): void
}

// The container injects the module's own ModuleRef for this class, of either build of the package.
Object.defineProperty(ModuleRef, kBuiltinToken, { value: 'moduleRef' })

/** What a ModuleRef and `app.container` ask of the container. */
export interface Lookups {
  /** What `token` is from `module`: a builtin's value, or a binding; `strict`: only what `module` declares. */
  find: (module: ModuleNode, token: Token, strict: boolean) => Box | Binding | undefined
  /** Every binding of `token`, one per module declaring it, in module order (a builtin's value alone). */
  findAll: (token: Token) => Array<Box | Binding>
  /** The module that declares `token` itself, if any. */
  declaring: (token: Token) => ModuleNode | undefined
  /** A singleton's instance, built first if need be. */
  singleton: (binding: Binding) => Promise<unknown>
  /** A request-scoped or transient instance for a context (a new one of its own if none). */
  inContext: (binding: Binding, contextId: ContextId | undefined, keepTransient: boolean) => Promise<unknown>
  /** An instance of a class no module provides, its dependencies resolved in `module`. */
  create: (module: ModuleNode, type: Type, contextId: ContextId | undefined) => Promise<unknown>
}

const isBox = (found: Box | Binding): found is Box => !('token' in found)

/**
 * A singleton's instance as `get()` gives it, for `call` (the call, for messages); `instead`:
 * what to call for a request-scoped or transient one.
 */
export function singletonFound (found: Box | Binding, call: string, instead: string): unknown {
  if (isBox(found)) return found.value
  if (found.perRequest || found.transient) {
    throw new ERR_SCOPED_PROVIDER(`${call}: ${bindingName(found)} is ${found.transient ? 'transient' : 'request-scoped'}; use ${instead} instead.`)
  }
  if (!found.built) {
    throw new ERR_UNKNOWN_TOKEN(`${call}: ${bindingName(found)} is not built yet; call get() from onModuleInit() or later, or inject it.`)
  }
  return found.instance
}

/** The ModuleRef a module's classes are given: the container's lookups, from that module. */
export class ModuleReference extends ModuleRef {
  readonly #lookups: Lookups
  readonly #module: ModuleNode

  constructor (lookups: Lookups, module: ModuleNode) {
    super()
    this.#lookups = lookups
    this.#module = module
  }

  get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options: ModuleRefGetOptions & { each: true }): TResult[]
  get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult
  get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult | TResult[] {
    const strict = options?.strict === true
    const instead = `await moduleRef.resolve(${tokenName(token)})`
    if (options?.each === true) {
      const call = `moduleRef.get(${tokenName(token)}, { each: true })`
      return this.#all(token, call).map((found) => singletonFound(found, call, instead) as TResult)
    }
    const call = `moduleRef.get(${tokenName(token)}${strict ? ', { strict: true }' : ''})`
    return singletonFound(this.#find(token, strict, call), call, instead) as TResult
  }

  resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId: ContextId | undefined, options: ModuleRefGetOptions & { each: true }): Promise<TResult[]>
  resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult>
  async resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult | TResult[]> {
    const strict = options?.strict === true
    if (options?.each === true) {
      const all = this.#all(token, `moduleRef.resolve(${tokenName(token)}, contextId, { each: true })`)
      return await Promise.all(all.map((found) => this.#resolved(found, contextId))) as TResult[]
    }
    const found = this.#find(token, strict, `moduleRef.resolve(${tokenName(token)}${strict ? ', contextId, { strict: true }' : ''})`)
    return await this.#resolved(found, contextId) as TResult
  }

  introspect<T = any> (token: InjectionToken<T>): IntrospectionResult {
    const found = this.#find(token, false, `moduleRef.introspect(${tokenName(token)})`)
    if (isBox(found)) return { scope: 'DEFAULT' }
    return { scope: found.perRequest ? 'REQUEST' : found.transient ? 'TRANSIENT' : 'DEFAULT' }
  }

  registerRequestByContextId<T = any> (request: T, contextId: ContextId): void {
    registerRequest(contextId, request)
  }

  #resolved (found: Box | Binding, contextId: ContextId | undefined): Promise<unknown> | unknown {
    if (isBox(found)) return found.value
    if (!found.perRequest && !found.transient) return this.#lookups.singleton(found)
    // With a context, a transient is built once for it too, as in NestJS.
    return this.#lookups.inContext(found, contextId, contextId !== undefined)
  }

  #all (token: Token, call: string): Array<Box | Binding> {
    const all = this.#lookups.findAll(token)
    if (all.length === 0) throw new ERR_UNKNOWN_TOKEN(`${call}: no module of the application provides this token.`)
    return all
  }

  async create<T> (type: Type<T>, contextId?: ContextId): Promise<T> {
    if (typeof type !== 'function' || type.prototype === undefined) {
      throw new ERR_INVALID_PROVIDER(`moduleRef.create() takes a class, given ${describe(type)}.`)
    }
    return await this.#lookups.create(this.#module, type, contextId) as T
  }

  #find (token: Token, strict: boolean, call: string): Box | Binding {
    const found = this.#lookups.find(this.#module, token, strict)
    if (found !== undefined) return found
    const owner = strict ? this.#lookups.declaring(token) : undefined
    if (owner) throw new ERR_UNKNOWN_TOKEN(`${call}: ${this.#module.name} does not declare it (${owner.name} does). Leave strict off to look in the whole application.`)
    throw new ERR_UNKNOWN_TOKEN(`${call}: no module of the application provides this token.`)
  }
}
