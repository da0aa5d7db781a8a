import type { FastifyRequest } from 'fastify'
import type { ContextId } from '../../types/index.js'
import { kContextRequest, kCreatedContext, kRequestContext } from '../util/symbols.js'

interface RequestContext extends ContextId { [kContextRequest]: FastifyRequest }
type RequestWithContext = FastifyRequest & { [kRequestContext]?: RequestContext }

let last = 0

// A context of no request: it holds its own instances, and REQUEST injects undefined there.
class CreatedContext implements ContextId {
  readonly id = ++last
  readonly [kCreatedContext] = true
}

/** Makes the context ids `moduleRef.resolve(token, contextId)` takes. */
export class ContextIdFactory {
  /** A new context: request-scoped and transient providers resolved with it are built once for it. */
  static create (): ContextId {
    return new CreatedContext()
  }

  /** The context of a request: what it resolves is what the request's own providers were given. */
  static getByRequest (request: FastifyRequest): ContextId {
    const holder = request as RequestWithContext
    return (holder[kRequestContext] ??= { id: ++last, [kContextRequest]: request })
  }
}

// Context ids made elsewhere (by @nestjs/core's ContextIdFactory, for a package resolving with
// it such as @nestjs/event-emitter), each with a created context of the plugin's standing for it.
const foreign = new WeakMap<object, CreatedContext>()

/** The object a context's instances are kept on: the request for a request's context, else the context itself. */
export function contextHolder (contextId: ContextId): object {
  const request = (contextId as Partial<RequestContext>)[kContextRequest]
  if (request !== undefined) return request
  if ((contextId as Partial<CreatedContext>)[kCreatedContext] === true) return contextId
  let own = foreign.get(contextId)
  if (own === undefined) foreign.set(contextId, own = new CreatedContext())
  return own
}

// What registerRequestByContextId() gave a created context to inject as REQUEST.
const registered = new WeakMap<object, unknown>()

/** Makes `request` what REQUEST injects into what is resolved with a created context. */
export function registerRequest (contextId: ContextId, request: unknown): void {
  registered.set(contextHolder(contextId), request)
}

/** What REQUEST injects for a holder: the request, or in a created context what was registered for it (else undefined). */
export function requestOf (holder: object | undefined): unknown {
  return (holder as Partial<CreatedContext> | undefined)?.[kCreatedContext] === true ? registered.get(holder!) : holder
}
