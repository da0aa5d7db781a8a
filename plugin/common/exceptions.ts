import { STATUS_CODES } from 'node:http'
import type { HttpExceptionOptions } from '../../types/index.js'
import { kExceptionClass } from '../util/symbols.js'

// Where NestJS words a reason phrase unlike Node.
const phrases: Record<number, string> = { 418: "I'm a teapot" }

/** The reason phrase of a status, as the `error` field of generated bodies. */
export function reasonPhrase (status: number): string {
  return phrases[status] ?? STATUS_CODES[status] ?? 'Error'
}

/**
 * An error that becomes an HTTP response. A string or array `response` gives
 * `{ statusCode, message, error }`; an object is sent as it is. Built-in subclasses
 * hold that generated body as their response, as NestJS's do.
 */
export class HttpException extends Error {
  readonly #response: string | string[] | Record<string, unknown>
  readonly #status: number
  readonly #body: Record<string, unknown>

  constructor (response: string | string[] | Record<string, unknown>, status: number, options: HttpExceptionOptions = {}) {
    super('', options.cause === undefined ? undefined : { cause: options.cause })
    this.#response = response
    this.#status = status
    this.name = this.constructor.name
    this.message = typeof response === 'string'
      ? response
      : (typeof (response as { message?: unknown })?.message === 'string' ? (response as { message: string }).message : this.name.replace(/([a-z])([A-Z])/g, '$1 $2'))
    this.#body = typeof response === 'object' && response !== null && !Array.isArray(response)
      ? response
      : { statusCode: status, message: response, error: options.description ?? reasonPhrase(status) }
  }

  getResponse (): string | string[] | Record<string, unknown> { return this.#response }
  getStatus (): number { return this.#status }
  /** The JSON body sent for this exception. */
  getBody (): Record<string, unknown> { return this.#body }
}

Object.defineProperty(HttpException, kExceptionClass, { value: 'HttpException' })

/** What answering an HTTP exception needs: the package's own, from either build, or any such object (NestJS's). */
export interface HttpExceptionLike {
  getStatus (): number
  getResponse (): unknown
  getBody?: () => Record<string, unknown>
}

export function isHttpException (value: unknown): value is HttpExceptionLike {
  return typeof value === 'object' && value !== null &&
    typeof (value as HttpExceptionLike).getStatus === 'function' && typeof (value as HttpExceptionLike).getResponse === 'function'
}

/** The JSON body an HTTP exception is answered with. */
export function exceptionBody (exception: HttpExceptionLike): unknown {
  if (typeof exception.getBody === 'function') return exception.getBody()
  const response = exception.getResponse()
  if (typeof response === 'object' && response !== null && !Array.isArray(response)) return response
  const status = exception.getStatus()
  return { statusCode: status, message: response, error: reasonPhrase(status) }
}

/**
 * `exception instanceof type`, where an HTTP exception class also matches its twin of the same
 * name from elsewhere, subclasses included: the package's other build (ESM and CommonJS loaded
 * in one process), or NestJS's, so `@Catch(NotFoundException)` catches both packages'
 * exceptions. An `HttpException` class matches every HTTP exception.
 */
export function isExceptionOf (exception: unknown, type: Function): boolean {
  if (exception instanceof (type as new () => unknown)) return true
  const name = httpExceptionClass(type)
  if (name === undefined || !isHttpException(exception)) return false
  if (name === 'HttpException') return true
  for (let proto = Object.getPrototypeOf(exception); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, 'constructor') && httpExceptionClass(proto.constructor) === name) return true
  }
  return false
}

/**
 * The first filter entry that catches `exception`: one whose @Catch() names no type, or a type
 * the exception is of (`isExceptionOf`, so HTTP exceptions of another build or of NestJS count).
 */
export function catchingEntry<E extends { types: Function[] }> (entries: E[], exception: unknown): E | undefined {
  for (let i = 0; i < entries.length; i++) {
    const { types } = entries[i]
    if (types.length === 0) return entries[i]
    for (let t = 0; t < types.length; t++) if (isExceptionOf(exception, types[t])) return entries[i]
  }
  return undefined
}

// The name an HTTP exception class goes by: the package's mark, or the name of a class whose
// instances answer getStatus() and getResponse() (NestJS's).
function httpExceptionClass (cls: unknown): string | undefined {
  if (typeof cls !== 'function') return undefined
  if (Object.hasOwn(cls, kExceptionClass)) return (cls as unknown as Record<symbol, string>)[kExceptionClass]
  const proto = cls.prototype as Partial<HttpExceptionLike> | undefined
  return typeof proto?.getStatus === 'function' && typeof proto.getResponse === 'function' ? cls.name : undefined
}

type Arg = string | string[] | Record<string, unknown> | undefined

/** A built-in exception: `new NotFoundException(message?, descriptionOrOptions?)`. */
export type HttpExceptionClass = new (response?: Arg, descriptionOrOptions?: string | HttpExceptionOptions) => HttpException

/**
 * The built-in exception class of each status, recorded as each is made: finding them by
 * making one of each when the package loads cost a stack trace per class.
 */
export const builtInExceptions = new Map<number, HttpExceptionClass>()

function httpError (status: number, name: string): HttpExceptionClass {
  const description = reasonPhrase(status)
  const Cls = class extends HttpException {
    constructor (response?: Arg, descriptionOrOptions?: string | HttpExceptionOptions) {
      const options = typeof descriptionOrOptions === 'string' ? { description: descriptionOrOptions } : (descriptionOrOptions ?? {})
      const error = options.description ?? description
      // A message (or none) becomes the body a filter reads from getResponse(); an object stays as given.
      const body = typeof response === 'object' && response !== null && !Array.isArray(response)
        ? response
        : { statusCode: status, message: response ?? error, error }
      super(body, status, options)
    }
  }
  Object.defineProperty(Cls, 'name', { value: name })
  Object.defineProperty(Cls, kExceptionClass, { value: name })
  builtInExceptions.set(status, Cls)
  return Cls
}

// Each also names its instances' type, as a class would: `catch (exception: NotFoundException, ...)`.
export const BadRequestException = httpError(400, 'BadRequestException')
export type BadRequestException = HttpException
export const UnauthorizedException = httpError(401, 'UnauthorizedException')
export type UnauthorizedException = HttpException
export const ForbiddenException = httpError(403, 'ForbiddenException')
export type ForbiddenException = HttpException
export const NotFoundException = httpError(404, 'NotFoundException')
export type NotFoundException = HttpException
export const MethodNotAllowedException = httpError(405, 'MethodNotAllowedException')
export type MethodNotAllowedException = HttpException
export const NotAcceptableException = httpError(406, 'NotAcceptableException')
export type NotAcceptableException = HttpException
export const RequestTimeoutException = httpError(408, 'RequestTimeoutException')
export type RequestTimeoutException = HttpException
export const ConflictException = httpError(409, 'ConflictException')
export type ConflictException = HttpException
export const GoneException = httpError(410, 'GoneException')
export type GoneException = HttpException
export const PreconditionFailedException = httpError(412, 'PreconditionFailedException')
export type PreconditionFailedException = HttpException
export const PayloadTooLargeException = httpError(413, 'PayloadTooLargeException')
export type PayloadTooLargeException = HttpException
export const UnsupportedMediaTypeException = httpError(415, 'UnsupportedMediaTypeException')
export type UnsupportedMediaTypeException = HttpException
export const ImATeapotException = httpError(418, 'ImATeapotException')
export type ImATeapotException = HttpException
export const MisdirectedException = httpError(421, 'MisdirectedException')
export type MisdirectedException = HttpException
export const UnprocessableEntityException = httpError(422, 'UnprocessableEntityException')
export type UnprocessableEntityException = HttpException
export const TooManyRequestsException = httpError(429, 'TooManyRequestsException')
export type TooManyRequestsException = HttpException
export const InternalServerErrorException = httpError(500, 'InternalServerErrorException')
export type InternalServerErrorException = HttpException
export const NotImplementedException = httpError(501, 'NotImplementedException')
export type NotImplementedException = HttpException
export const BadGatewayException = httpError(502, 'BadGatewayException')
export type BadGatewayException = HttpException
export const ServiceUnavailableException = httpError(503, 'ServiceUnavailableException')
export type ServiceUnavailableException = HttpException
export const GatewayTimeoutException = httpError(504, 'GatewayTimeoutException')
export type GatewayTimeoutException = HttpException
export const HttpVersionNotSupportedException = httpError(505, 'HttpVersionNotSupportedException')
export type HttpVersionNotSupportedException = HttpException

/** The built-in exception of a status with `message`, or an HttpException with the same body. */
export function exceptionFor (status: number, message?: string | string[]): HttpException {
  const Cls = builtInExceptions.get(status)
  if (Cls) return new Cls(message)
  const error = reasonPhrase(status)
  return new HttpException({ statusCode: status, message: message ?? error, error }, status)
}
