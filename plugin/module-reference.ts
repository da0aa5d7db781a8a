import type { ContextId, InjectionToken, ModuleRefGetOptions, Type } from '../types/index.js'
import type { ModuleNode } from './scanner.js'
import { ModuleRef } from './module-ref.js'

/** What a module's ModuleRef asks of the container, for that module. */
export interface ModuleRefHost {
  get: (module: ModuleNode, token: InjectionToken, strict: boolean) => unknown
  resolve: (module: ModuleNode, token: InjectionToken, contextId: ContextId | undefined, strict: boolean) => Promise<unknown>
  create: (module: ModuleNode, type: Type, contextId: ContextId | undefined) => Promise<unknown>
}

/** The ModuleRef a module's classes are given: the container's lookups, from that module. */
export class ModuleReference extends ModuleRef {
  readonly #host: ModuleRefHost
  readonly #module: ModuleNode

  constructor (host: ModuleRefHost, module: ModuleNode) {
    super()
    this.#host = host
    this.#module = module
  }

  get<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, options?: ModuleRefGetOptions): TResult {
    return this.#host.get(this.#module, token, options?.strict === true) as TResult
  }

  async resolve<TInput = any, TResult = TInput> (token: InjectionToken<TInput>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<TResult> {
    return await this.#host.resolve(this.#module, token, contextId, options?.strict === true) as TResult
  }

  async create<T> (type: Type<T>, contextId?: ContextId): Promise<T> {
    return await this.#host.create(this.#module, type, contextId) as T
  }
}
