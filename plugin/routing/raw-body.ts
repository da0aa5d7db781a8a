import type { FastifyInstance, FastifyRequest } from 'fastify'
import { parse as parseQueryString } from 'node:querystring'
import { BadRequestException } from '../common/exceptions.js'

type RawRequest = FastifyRequest & { rawBody?: Buffer }
type Done = (error: Error | null, body?: unknown) => void
type Parse = (request: FastifyRequest, body: Buffer, done: Done) => void

export const urlencoded = 'application/x-www-form-urlencoded'

/** Whether a parser given for `given` (a string as Fastify stores it: trimmed, lower case, or a RegExp) takes `type`. */
export function takesType (given: string | RegExp, type: string): boolean {
  return typeof given === 'string' ? given.trim().toLowerCase() === type : given.test(type)
}
const protoKey = '__proto__'

export interface BodyParserOptions {
  /** Keep the bytes as `request.rawBody`. */
  rawBody: boolean
  /** The largest body accepted, in bytes (Fastify's 413 above it); the context's own by default. */
  bodyLimit?: number
  /** A parser of the user's, as Fastify takes them: `(request, body, done)` or `async (request, body)`. */
  parser?: (request: FastifyRequest, body: Buffer, done: Done) => unknown
}

/**
 * The one way the package reads bodies as bytes, for @RawBody() routes, the `rawBody` option and
 * `useBodyParser()`: a parser for `type` that takes the body as a Buffer, keeps it as
 * `request.rawBody` when asked, then parses JSON, text and form bodies as NestJS on Fastify does
 * (Fastify's own JSON parser, same errors) and hands any other type over as the Buffer.
 */
export function addBodyParser (instance: FastifyInstance, type: string | RegExp, { rawBody, bodyLimit, parser }: BodyParserOptions): void {
  const name = typeof type === 'string' ? type.trim().toLowerCase() : undefined
  const parse = parser !== undefined ? userParser(parser) : name !== undefined ? defaultParser(instance, name) : undefined
  if (rawBody && !instance.hasRequestDecorator('rawBody')) instance.decorateRequest('rawBody', undefined)
  if (instance.hasContentTypeParser(type)) instance.removeContentTypeParser(type)
  if (rawBody && name !== undefined) rawTypesOf(instance).add(name)
  const options = bodyLimit === undefined ? { parseAs: 'buffer' as const } : { parseAs: 'buffer' as const, bodyLimit }
  instance.addContentTypeParser(type, options, rawBody
    ? function fdpRawBody (request, body, done) {
      (request as RawRequest).rawBody = body as Buffer
      if (parse === undefined) done(null, body)
      else parse(request, body as Buffer, done)
    }
    : parse ?? function fdpBuffer (request, body, done) { done(null, body) })
}

/**
 * Makes `instance` keep the bytes of JSON and text bodies (and form bodies, with `forms`, when
 * the context has no form parser of its own) as `request.rawBody`: the context of routes that
 * take @RawBody(), or every controller's with the `rawBody` option.
 */
export function installRawBodyParsers (instance: FastifyInstance, forms = false): void {
  // A type whose parser keeps the bytes already (useBodyParser() with rawBody, on a parent) keeps
  // that parser and its limit.
  const raw = (instance as RawTypes)[kRawTypes]
  if (raw?.has('application/json') !== true) addBodyParser(instance, 'application/json', { rawBody: true })
  if (raw?.has('text/plain') !== true) addBodyParser(instance, 'text/plain', { rawBody: true })
  if (forms && !instance.hasContentTypeParser(urlencoded)) addBodyParser(instance, urlencoded, { rawBody: true })
}

// The types whose parser keeps the bytes, per context; a child context reads its parent's through
// the prototype Fastify gives it, and adds to a copy of its own.
const kRawTypes = Symbol('fdp.rawBodyTypes')
type RawTypes = FastifyInstance & { [kRawTypes]?: Set<string> }
function rawTypesOf (instance: FastifyInstance): Set<string> {
  const context = instance as RawTypes
  if (!Object.hasOwn(context, kRawTypes)) context[kRawTypes] = new Set(context[kRawTypes])
  return context[kRawTypes]!
}

// Completes once, whether the parser calls `done` or returns a promise (whose rejection Fastify
// would not see through the wrapper, so it goes to `done` too).
function userParser (parser: NonNullable<BodyParserOptions['parser']>): Parse {
  return (request, body, done) => {
    let completed = false
    const once: Done = (error, parsed) => {
      if (completed) return
      completed = true
      done(error, parsed)
    }
    try {
      const result = parser(request, body, once) as PromiseLike<unknown> | undefined
      if (typeof result?.then === 'function') result.then((parsed) => { if (parser.length < 3) once(null, parsed) }, (error) => once(error ?? new Error('body parser rejected')))
    } catch (error) {
      once(error as Error)
    }
  }
}

function defaultParser (instance: FastifyInstance, type: string): Parse | undefined {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = instance.initialConfig
  switch (type) {
    case 'application/json': return instance.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning) as unknown as Parse
    case 'text/plain': return (request, body, done) => done(null, body.toString('utf8'))
    case urlencoded: return (request, body, done) => {
      // A null-prototype object, where "__proto__" is an ordinary key: copied onto another
      // object it would replace that object's prototype, so it is refused as in a JSON body.
      const form = parseQueryString(body.toString('utf8'))
      if (onProtoPoisoning !== 'ignore' && Object.hasOwn(form, protoKey)) {
        if (onProtoPoisoning === 'error') return done(new BadRequestException('Object contains forbidden prototype property'))
        delete (form as Record<string, unknown>)[protoKey]
      }
      done(null, form)
    }
    default: return undefined
  }
}
