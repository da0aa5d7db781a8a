import type { ContextId, InjectionToken, ModuleRefGetOptions, Type } from '../../types/index.js'
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
  abstract get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult
  abstract resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult>
  abstract create<T> (type: Type<T>, contextId?: ContextId): Promise<T>
}

// The container injects the module's own ModuleRef for this class, of either build of the package.
Object.defineProperty(ModuleRef, kBuiltinToken, { value: 'moduleRef' })

/** What a ModuleRef and `app.container` ask of the container. */
export interface Lookups {
  /** What `token` is from `module`: a builtin's value, or a binding; `strict`: only what `module` declares. */
  find: (module: ModuleNode, token: Token, strict: boolean) => Box | Binding | undefined
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

  get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult {
    const strict = options?.strict === true
    const call = `moduleRef.get(${tokenName(token)}${strict ? ', { strict: true }' : ''})`
    return singletonFound(this.#find(token, strict, call), call, `await moduleRef.resolve(${tokenName(token)})`) as TResult
  }

  async resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult> {
    const strict = options?.strict === true
    const found = this.#find(token, strict, `moduleRef.resolve(${tokenName(token)}${strict ? ', contextId, { strict: true }' : ''})`)
    if (isBox(found)) return found.value as TResult
    if (!found.perRequest && !found.transient) return await this.#lookups.singleton(found) as TResult
    // With a context, a transient is built once for it too, as in NestJS.
    return await this.#lookups.inContext(found, contextId, contextId !== undefined) as TResult
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
