import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ExecutionContext, PipeTransform, Type } from '../../types/index.js'
import { kParams } from '../util/symbols.js'
import { declareMember, memberDeclaration, ownMemberDeclaration } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { refuseTc39 } from '../util/legacy-decorator.js'
import { hasMethod } from '../util/has-method.js'

export type ParamKind = 'param' | 'query' | 'body' | 'headers' | 'req' | 'res' | 'ip' | 'custom' | 'rawBody' | 'file' | 'files' | 'host' | 'cookies' | 'signedCookies' | 'session'

export type PipeEntry = Type<PipeTransform> | PipeTransform

export interface ParamDefinition {
  index: number
  kind: ParamKind
  data?: string
  pipes: PipeEntry[]
  passthrough?: boolean
  /** @UploadedFile(s): answer 400 when no file came. */
  required?: boolean
  factory?: (data: any, ctx: ExecutionContext) => unknown
}

/** A parameter decorator recording `definition` at the index it is applied to. */
export function paramDecorator (name: string, definition: Omit<ParamDefinition, 'index'>): ParameterDecorator {
  return (target: object, key: string | symbol | undefined, index: number) => {
    refuseTc39(name, target, key)
    // A copy and one property added, not `{ ...definition, index }`: V8 gave most such spread
    // copies a hidden class of their own, one per parameter of the application.
    const param = Object.assign({}, definition) as ParamDefinition
    param.index = index
    addParam(target, key, param)
  }
}

function addParam (target: object, key: string | symbol | undefined, definition: ParamDefinition): void {
  if (key === undefined) {
    throw new ERR_INVALID_DECLARATION(`Parameter decorators apply to handler methods, not to the constructor of ${(target as Function).name}.`)
  }
  // The method's own list grows in place (copying it on each decorator made a method's
  // parameters quadratic); only its first parameter decorator makes the list.
  const params = ownMemberDeclaration<ParamDefinition[]>(target, kParams, key)
  if (params !== undefined) params.push(definition)
  else declareMember(target, kParams, key, [definition])
}

export function paramDefinitions (prototype: object, key: string | symbol): ParamDefinition[] {
  return memberDeclaration<ParamDefinition[]>(prototype, kParams, key) ?? []
}

export function isPipe (value: unknown): value is PipeEntry {
  return hasMethod(value, 'transform')
}

// `@Param()`, `@Param('id')`, `@Param('id', ParseIntPipe)`, `@Param(ParseIntPipe)`.
function pipeable (kind: ParamKind) {
  const name = `@${kind[0].toUpperCase()}${kind.slice(1)}()`
  return pipeableAs(kind, name)
}

function pipeableAs (kind: ParamKind, name: string) {
  return (dataOrPipe?: string | PipeEntry, ...pipes: PipeEntry[]): ParameterDecorator => {
    let data: string | undefined
    // A name or nothing, the common cases, first: isPipe() reads a property of anything it is given.
    if (typeof dataOrPipe === 'string' || dataOrPipe === undefined) data = dataOrPipe as string | undefined
    else if (isPipe(dataOrPipe)) pipes = [dataOrPipe, ...pipes]
    else throw new ERR_INVALID_DECLARATION(`${name} takes a property name and pipes, given ${typeof dataOrPipe}.`)
    for (let i = 0; i < pipes.length; i++) {
      if (!isPipe(pipes[i])) throw new ERR_INVALID_DECLARATION(`${name}: every pipe needs a transform() method.`)
    }
    return paramDecorator(name, { kind, data, pipes })
  }
}

export const Param = pipeable('param')
export const Query = pipeable('query')
export const Body = pipeable('body')
/** The request's cookies (all, or one by name), as @fastify/cookie parsed them. */
export const Cookies = pipeableAs('cookies', '@Cookies()')
/**
 * The request's signed cookies whose signature verifies (all, or one by name), unsigned with
 * @fastify/cookie's secret; a cookie whose signature does not verify is undefined (left out of all).
 */
export const SignedCookies = pipeableAs('signedCookies', '@SignedCookies()')

/** The request's session, from @fastify/session or @fastify/secure-session. */
export function Session (): ParameterDecorator {
  return paramDecorator('@Session()', { kind: 'session', pipes: [] })
}

/** A request header by name (case-insensitive), or all headers. */
export function Headers (name?: string): ParameterDecorator {
  if (name !== undefined && typeof name !== 'string') {
    throw new ERR_INVALID_DECLARATION(`@Headers() takes a header name, given ${describe(name)}.`)
  }
  return paramDecorator('@Headers()', { kind: 'headers', data: name?.toLowerCase(), pipes: [] })
}

export function Req (): ParameterDecorator {
  return paramDecorator('@Req()', { kind: 'req', pipes: [] })
}

/** The Fastify reply. The handler then sends the reply itself, unless `passthrough` is set. */
export function Res (options: { passthrough?: boolean } = {}): ParameterDecorator {
  return paramDecorator('@Res()', { kind: 'res', passthrough: options.passthrough === true, pipes: [] })
}

/** `@Request()`: NestJS's other name of `@Req()`; as a type, the Fastify request. */
export function Request (): ParameterDecorator {
  return paramDecorator('@Request()', { kind: 'req', pipes: [] })
}
export type Request = FastifyRequest

/** `@Response()`: NestJS's other name of `@Res()`; as a type, the Fastify reply. */
export function Response (options: { passthrough?: boolean } = {}): ParameterDecorator {
  return paramDecorator('@Response()', { kind: 'res', passthrough: options.passthrough === true, pipes: [] })
}
export type Response = FastifyReply

export function Ip (): ParameterDecorator {
  return paramDecorator('@Ip()', { kind: 'ip', pipes: [] })
}

/** The unparsed request body as a Buffer. */
export function RawBody (...pipes: PipeEntry[]): ParameterDecorator {
  return paramDecorator('@RawBody()', { kind: 'rawBody', pipes })
}

/**
 * Makes a custom parameter decorator. `factory(data, ctx)` runs per request; its result flows
 * through the pipes like any other parameter, with `type: 'custom'`.
 */
export function createParamDecorator<D = any, R = any> (factory: (data: D, ctx: ExecutionContext) => R) {
  return (dataOrPipe?: D | PipeEntry, ...pipes: PipeEntry[]): ParameterDecorator => {
    let data = dataOrPipe as D
    if (isPipe(dataOrPipe)) {
      pipes = [dataOrPipe, ...pipes]
      data = undefined as D
    }
    return paramDecorator('A parameter decorator made by createParamDecorator()', {
      kind: 'custom', data: data as any, pipes, factory: factory as ParamDefinition['factory']
    })
  }
}
