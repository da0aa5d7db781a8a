import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { validateHeaderName, validateHeaderValue } from 'node:http'
import type { ExceptionFilter, Type } from '../../types/index.js'
import { catchingEntry, exceptionBody, isHttpException } from '../common/exceptions.js'
import { HttpExecutionContext } from './execution-context.js'
import { catchTypes } from '../decorators/enhancers.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { builtClass } from '../di/binding.js'
import { kAnswer, kRouteInfo } from '../util/symbols.js'
import { describe } from '../util/describe.js'
import { ThrownValue, asError } from '../util/thrown.js'

export interface RouteInfo { cls: Type, handler: (...args: any[]) => any }

const internalError = { statusCode: 500, message: 'Internal server error' }
const internalErrorJson = JSON.stringify(internalError)

/** An error answer the plugin has started to send: what it answers, and what it logged. */
interface Answer { exception?: unknown, logged?: Error }
type AnsweredReply = FastifyReply & { [kAnswer]?: Answer }

/** Whether Fastify can send `status`: reply.code() refuses anything else. */
function isStatus (status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599
}

/** ` in Controller.method` for log lines, when the request reached a decorated route. */
function where (request: FastifyRequest): string {
  const info = (request.routeOptions.config as unknown as Record<symbol, RouteInfo | undefined>)?.[kRouteInfo]
  return info ? ` in ${info.cls.name}.${info.handler.name}` : ''
}

/** Header values Node would refuse (CR/LF, control characters), which a 500 must not carry. */
function badHeaders (reply: FastifyReply): string[] {
  const bad: string[] = []
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    try {
      validateHeaderName(name)
      for (const item of Array.isArray(value) ? value : [value]) validateHeaderValue(name, item as string)
    } catch {
      bad.push(name)
    }
  }
  return bad
}

/**
 * A 500 after Node refused a header (CR/LF or control characters in a value the handler
 * set) would fail the same way: such headers are dropped so the 500 itself goes out.
 */
function sendInternalError (reply: FastifyReply, exception: unknown, logged: Error): void {
  (reply as AnsweredReply)[kAnswer] = { exception, logged }
  const bad = badHeaders(reply)
  for (const name of bad) reply.removeHeader(name)
  // The failed writeHead already picked the reason phrase of the success status.
  if (bad.length > 0) reply.raw.statusMessage = ''
  reply.code(500).send(internalError)
}

/** An error carrying a 4xx/5xx statusCode: Fastify's own, or a plugin's, answered in Fastify's format. */
function keepsFastifyFormat (exception: unknown): boolean {
  if (!(exception instanceof Error)) return false
  const { statusCode, code } = exception as FastifyError
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode <= 599 && code !== 'FST_ERR_BAD_STATUS_CODE'
}

/**
 * The client went away while its body was being read (Node's `aborted` error on a request
 * that is gone): a JSON body, a form or a multipart upload alike. Nobody is left to answer, and
 * a client must not be able to fill the error log by hanging up.
 */
function clientAborted (error: unknown, request: FastifyRequest, reply: FastifyReply): boolean {
  if ((error as NodeJS.ErrnoException | null)?.code !== 'ECONNRESET' || !request.raw.destroyed) return false
  reply.log.debug({ err: error }, 'The client aborted the request while its body was read; not answered')
  reply.hijack()
  reply.raw.destroy()
  return true
}

/** The built-in answer to an exception no filter took. */
export function sendException (exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  // Also the other build's exceptions, and any object that answers like one (NestJS's).
  if (isHttpException(exception)) {
    const status = exception.getStatus()
    const name = (exception as { name?: unknown }).name ?? 'HttpException'
    if (!isStatus(status)) {
      reply.log.error({ err: asError(exception) }, `${String(name)} thrown with the status ${describe(status)}${where(request)}, which is not an HTTP status (an integer from 100 to 599); answered 500`)
      return sendInternalError(reply, exception, asError(exception))
    }
    (reply as AnsweredReply)[kAnswer] = { exception }
    reply.code(status).send(exceptionBody(exception))
    return
  }
  if ((exception as FastifyError | null)?.code === 'FST_ERR_BAD_STATUS_CODE') {
    // Fastify's message names the status; its stack, where it was set.
    reply.log.error({ err: exception }, `A status Fastify refuses was set on the reply${where(request)}; answered 500`)
    return sendInternalError(reply, exception, exception as Error)
  }
  // Fastify's own errors (parsing, validation, plugins) keep Fastify's format: the parent handles them.
  if (keepsFastifyFormat(exception)) throw exception
  const err = exception instanceof Error ? exception : new ThrownValue(exception)
  reply.log.error({ err }, 'Unhandled exception')
  sendInternalError(reply, exception, err)
}

// The same failure again (a hook that throws on every payload) adds nothing to the log.
function isRepeat (error: unknown, logged: Error | undefined): boolean {
  return logged !== undefined && error instanceof Error && error.constructor === logged.constructor && error.message === logged.message
}

/**
 * Sending an error answer failed (a serializer, an onSend or preSerialization hook threw):
 * trying again through the same hooks would fail again and end in a body carrying the
 * error's text. One log line, then the plain 500 written as Fastify's own last resort
 * writes it, past the hooks.
 */
function answerFailed (error: unknown, request: FastifyRequest, reply: AnsweredReply): void {
  const { exception, logged } = reply[kAnswer] ?? {}
  if (!isRepeat(error, logged)) {
    const what = exception instanceof Error ? `The answer to ${exception.name}` : 'An error answer'
    reply.log.error({ err: asError(error) }, `${what}${where(request)} could not be sent; answered 500`)
  }
  const raw = reply.raw
  reply.hijack()
  if (raw.headersSent || raw.destroyed) {
    raw.destroy()
    return
  }
  const headers: Record<string, number | string | string[]> = {}
  const bad = badHeaders(reply)
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !bad.includes(name) && !payloadHeaders.has(name)) headers[name] = value
  }
  headers['content-type'] = 'application/json; charset=utf-8'
  headers['content-length'] = Buffer.byteLength(internalErrorJson)
  raw.writeHead(500, headers)
  raw.end(internalErrorJson)
}

// Headers that describe the payload the failed answer would have had.
const payloadHeaders = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'trailer', 'etag'])

/**
 * The error handler of the plugin's outermost context, above every filter: the answer of
 * last resort. Fastify's own errors pass on to the app's handler, as from every level
 * below; anything else reaching it is an answer (a filter's, or the built-in one) that
 * failed to go out.
 */
export function lastResortErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const exception = error instanceof ThrownValue ? error.value : error
  if ((reply as AnsweredReply)[kAnswer] === undefined && keepsFastifyFormat(exception)) throw exception
  answerFailed(error, request, reply)
}

interface FilterEntry { ref: EnhancerRef<ExceptionFilter>, types: Function[] }

// A filter's @Catch() types, once its class is known: an APP_FILTER made by a factory is known once built.
function filterTypes (ref: EnhancerRef<ExceptionFilter>): Function[] | undefined {
  const cls = ref.binding !== undefined ? builtClass(ref.binding) : undefined
  return cls !== undefined || ref.value !== undefined ? catchTypes(cls ?? ref.value as object) : undefined
}

/**
 * An error handler trying the filters nearest first, then the built-in answer. `levels` are
 * given outermost first (global, controller, handler); as in NestJS, the handler's filters are
 * tried first, and within a level the last one listed. Set on the plugin's context (global
 * filters), on a controller's context, or on a route with filters of its own.
 */
export function createErrorHandler (levels: Array<Array<EnhancerRef<ExceptionFilter>>>, refs: EnhancerRefs) {
  const entries: FilterEntry[] = levels.flat().reverse().map((ref) => {
    const entry: FilterEntry = { ref, types: filterTypes(ref) ?? [] }
    if (ref.binding !== undefined && builtClass(ref.binding) === undefined) refs.afterFill(() => { entry.types = filterTypes(ref) ?? [] })
    return entry
  })

  if (entries.length === 0) {
    return function fdpErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply) {
      if ((reply as AnsweredReply)[kAnswer] !== undefined) return answerFailed(error, request, reply)
      if (clientAborted(error, request, reply)) return
      sendException(error instanceof ThrownValue ? error.value : error, request, reply)
    }
  }

  return async function fdpFilteredErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply) {
    if ((reply as AnsweredReply)[kAnswer] !== undefined) return answerFailed(error, request, reply)
    if (clientAborted(error, request, reply)) return
    const exception = error instanceof ThrownValue ? error.value : error
    const entry = catchingEntry(entries, exception)
    if (!entry) {
      sendException(exception, request, reply)
      // Returning the reply (a thenable) makes Fastify wait for it instead of sending again.
      return reply
    }
    const info: RouteInfo | undefined = (request.routeOptions.config as unknown as Record<symbol, RouteInfo>)[kRouteInfo]
    const host = new HttpExecutionContext(request, reply, info?.cls as Type, info?.handler as RouteInfo['handler'])
    // Whether the filter started an answer: with async onSend hooks a send is still in flight
    // when catch() returns, and reply.sent only says so once it is done.
    let answered = false
    const send = reply.send
    reply.send = function (payload?: unknown) {
      answered = true
      // If this answer fails to go out, it is reported, not filtered again; an Error sent is
      // Fastify's way to hand it to the next error handler, and stays so.
      if (!(payload instanceof Error)) (reply as AnsweredReply)[kAnswer] = { exception }
      return send.call(this, payload)
    }
    let failure: { error: unknown } | undefined
    try {
      await (await refs.get(entry.ref, request)).catch(exception, host)
    } catch (filterError) {
      failure = { error: filterError }
    }
    delete (reply as Partial<FastifyReply>).send
    if (answered || reply.sent) return reply
    if (failure === undefined || isHttpException(failure.error)) {
      // A filter that did not answer leaves it to the built-in handler; one that threw an HttpException, to its answer.
      sendException(failure === undefined ? exception : failure.error, request, reply)
    } else {
      const err = asError(failure.error)
      reply.log.error({ err }, `Exception filter ${entry.ref.name} threw`)
      sendInternalError(reply, failure.error, err)
    }
    return reply
  }
}
