import type { Container as PublicContainer, ContextId, InjectionToken, ModuleRefGetOptions } from '../../types/index.js'
import { ModuleRef } from '../di/module-ref.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { tokenName } from '../util/describe.js'

/**
 * `get(token, { strict })` of a testing module or its application. Strict: only what the test
 * module itself declares, as the root module's ModuleRef answers; otherwise the whole application.
 */
export function getIn<T> (container: PublicContainer, token: InjectionToken<T>, options?: ModuleRefGetOptions): T {
  if ((options as { each?: unknown } | undefined)?.each === true) {
    throw new ERR_INVALID_OPTIONS(`get(${tokenName(token)}, { each: true }) is not supported: a token has one provider here; get() it without each.`)
  }
  if (options?.strict === true) return container.get(ModuleRef).get<T>(token, { strict: true })
  return container.get(token)
}

/** `resolve(token, contextId?, { strict }?)`: with neither, a fresh context per call. */
export async function resolveIn<T> (container: PublicContainer, token: InjectionToken<T>, contextId?: ContextId, options?: ModuleRefGetOptions): Promise<T> {
  if (contextId === undefined && options?.strict !== true) return await container.resolve(token)
  return await container.get(ModuleRef).resolve<T>(token, contextId, options)
}
