import type { ContextId, InjectionToken, ModuleRefGetOptions, Type } from '../types/index.js'
import { kBuiltinToken } from './symbols.js'

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
