import type { FastifyRequest } from 'fastify'
import type { Container as PublicContainer, InjectionToken } from '../../types/index.js'
import type { ModuleNode } from './scanner.js'
import type { Container } from './container.js'
import { singletonFound } from './module-ref.js'
import { kApplication } from '../util/symbols.js'
import { ERR_UNKNOWN_TOKEN } from '../util/errors.js'
import { tokenName } from '../util/describe.js'

/**
 * The object users reach as `app.container`: what the root module's ModuleRef finds, from plain
 * Fastify code. Tokens carry no type at run time, hence the casts to T.
 */
export function appContainer (lookups: Container, root: ModuleNode): PublicContainer {
  const find = (token: InjectionToken, call: string) => {
    const found = lookups.find(root, token, false)
    if (found === undefined) throw new ERR_UNKNOWN_TOKEN(`${call}: no module provides this token.`)
    return found
  }
  const api: PublicContainer = {
    // app.container is decorated once every singleton is built: the instance is there.
    get: <T>(token: InjectionToken<T>): T => {
      const call = `container.get(${tokenName(token)})`
      return singletonFound(find(token, call), call, 'await container.resolve(token, request)') as T
    },
    resolve: async <T>(token: InjectionToken<T>, request?: FastifyRequest): Promise<T> => {
      const found = find(token, `container.resolve(${tokenName(token)})`)
      if (!('token' in found)) return found.value as T
      // Without a request, a context of its own stands in (one instance per call).
      return await (request === undefined ? lookups.inContext(found, undefined, false) : lookups.resolveIn(found, request)) as T
    }
  }
  // Marks the decoration as this plugin's, out of sight of enumeration.
  return Object.defineProperty(api, kApplication, { value: true })
}
