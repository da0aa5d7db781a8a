import type { Container as PublicContainer, ContextId, InjectionToken, ModuleRefGetOptions } from '../../types/index.js'
import { ModuleRef } from '../di/module-ref.js'

/**
 * `get(token, { strict })` of a testing module or its application. Strict: only what the test
 * module itself declares, as the root module's ModuleRef answers; otherwise the whole application.
 */
export function getIn<T> (container: PublicContainer, token: InjectionToken<T>, options?: ModuleRefGetOptions): T | T[] {
  // `each`: every provider under the token, in the whole application whatever `strict` says, as in NestJS.
  if (options?.each === true) return container.get(ModuleRef).get<T>(token, { each: true })
  if (options?.strict === true) return container.get(ModuleRef).get<T>(token, { strict: true })
  return container.get(token)
}

/** `resolve(token, contextId?, { strict }?)`: with neither, a fresh context per call. */
export async function resolveIn<T> (container: PublicContainer, token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T | T[]> {
  if (contextId === undefined && options?.strict !== true && options?.each !== true) return await container.resolve(token)
  return await container.get(ModuleRef).resolve<T>(token, contextId, options)
}
