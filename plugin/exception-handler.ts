import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { validateHeaderName, validateHeaderValue } from 'node:http'
import type { ExceptionFilter, Type } from '../types/index.js'
import { exceptionBody, isExceptionOf, isHttpException } from './exceptions.js'
import { HttpExecutionContext } from './execution-context.js'
import { catchTypes } from './enhancers.js'
import type { EnhancerRef, EnhancerRefs } from './enhancer-ref.js'
import { kRouteInfo } from './symbols.js'

/** Wraps a thrown non-Error so Fastify's hook runner keeps it; filters see the original. */
export class ThrownValue extends Error {
  readonly value: unknown
  constructor (value: unknown) {
    super(`A non-Error value was thrown: ${String(value)}`)
    this.value = value
  }
}

export function asError (value: unknown): Error {
  return value instanceof Error ? value : new ThrownValue(value)
}

export interface RouteInfo { cls: Type, handler: (...args: any[]) => any }

const internalError = { statusCode: 500, message: 'Internal server error' }

/**
 * A 500 after Node refused a header (CR/LF or control characters in a value the handler
 * set) would fail the same way: such headers are dropped so the 500 itself goes out.
 */
function sendInternalError (reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    try {
      validateHeaderName(name)
      for (const item of Array.isArray(value) ? value : [value]) validateHeaderValue(name, item as string)
    } catch {
      reply.removeHeader(name)
      // The failed writeHead already picked the reason phrase of the success status.
      reply.raw.statusMessage = ''
    }
  }
  reply.code(500).send(internalError)
}

/** The built-in answer to an exception no filter took. */
export function sendException (exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  // Also the other build's exceptions, and any object that answers like one (NestJS's).
  if (isHttpException(exception)) {
    reply.code(exception.getStatus()).send(exceptionBody(exception))
    return
  }
  const status = (exception as FastifyError | null)?.statusCode
  if (exception instanceof Error && typeof status === 'number' && status >= 400 && status <= 599) {
    // Fastify's own errors (parsing, validation, plugins) keep Fastify's format: the parent handles them.
    throw exception
  }
  reply.log.error({ err: exception instanceof Error ? exception : new ThrownValue(exception) }, 'Unhandled exception')
  sendInternalError(reply)
}

interface FilterEntry { ref: EnhancerRef<ExceptionFilter>, types: Function[] }

/**
 * An error handler trying `filters` nearest first, then the built-in answer.
 * Set on a controller's context (controller and global filters) or on a route.
 */
export function createErrorHandler (filters: Array<EnhancerRef<ExceptionFilter>>, refs: EnhancerRefs) {
  const entries: FilterEntry[] = filters.map((ref) => ({ ref, types: catchTypes(ref.binding?.definition.useClass ?? (ref.value as object)) }))

  if (entries.length === 0) {
    return function fdpErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply) {
      sendException(error instanceof ThrownValue ? error.value : error, request, reply)
    }
  }

  return async function fdpFilteredErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const exception = error instanceof ThrownValue ? error.value : error
    const entry = entries.find(({ types }) => types.length === 0 || types.some((type) => isExceptionOf(exception, type)))
    if (!entry) return sendException(exception, request, reply)
    const info: RouteInfo | undefined = (request.routeOptions.config as unknown as Record<symbol, RouteInfo>)[kRouteInfo]
    const host = new HttpExecutionContext(request, reply, info?.cls as Type, info?.handler as RouteInfo['handler'])
    try {
      const filter = await refs.get(entry.ref, request)
      await filter.catch(exception, host)
    } catch (filterError) {
      if (reply.sent) return
      if (isHttpException(filterError)) return sendException(filterError, request, reply)
      reply.log.error({ err: asError(filterError) }, `Exception filter ${entry.ref.name} threw`)
      return sendInternalError(reply)
    }
    // A filter that did not answer leaves it to the built-in handler.
    if (!reply.sent) sendException(exception, request, reply)
  }
}
