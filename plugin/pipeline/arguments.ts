import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ArgumentMetadata, ExecutionContext, PipeTransform, Type } from '../../types/index.js'
import type { ParamDefinition } from '../decorators/params.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { noEntries } from '../util/empty.js'
import { piped } from './pipes.js'
import { uploadExtractor } from '../decorators/uploads.js'
import { hostParamsReader, type Host } from '../decorators/host.js'

// A handler's arguments: each parameter's value taken from the request, then its pipes run.

export type Extractor = (request: FastifyRequest, reply: FastifyReply, ctx: ExecutionContext | undefined) => unknown

const pipeableKinds = new Set(['param', 'query', 'body', 'custom', 'rawBody', 'file', 'files', 'cookies', 'signedCookies'])

// What needs no data of its own is one function shared by every route.
const wholeObject: Partial<Record<ParamDefinition['kind'], Extractor>> = {
  param: (req) => req.params,
  query: (req) => req.query,
  body: (req) => req.body,
  headers: (req) => req.headers,
  req: (req) => req,
  res: (req, reply) => reply,
  ip: (req) => req.ip,
  rawBody: (req) => (req as FastifyRequest & { rawBody?: Buffer }).rawBody,
  cookies: (req) => (req as unknown as CookieRequest).cookies,
  signedCookies: (req) => signedCookies(req as unknown as CookieRequest),
  session: (req) => (req as FastifyRequest & { session?: unknown }).session
}

// What @fastify/cookie adds to the request; the router checks it is registered.
interface CookieRequest {
  cookies: Record<string, string | undefined> | null
  unsignCookie: (value: string) => { valid: boolean, value: string | null }
}

function extractor (param: ParamDefinition, hosts: Host[]): Extractor {
  const { kind, data } = param
  switch (kind) {
    case 'param':
    case 'query':
    case 'body':
    case 'headers': return data === undefined ? wholeObject[kind]! : keyedExtractor(kind, data)
    case 'file':
    case 'files': return uploadExtractor(param)
    case 'cookies': return data === undefined ? wholeObject.cookies! : (req) => ownProperty((req as unknown as CookieRequest).cookies, data)
    case 'signedCookies': return data === undefined ? wholeObject.signedCookies! : (req) => signedCookie(req as unknown as CookieRequest, data)
    case 'host': return hostExtractor(hostParamsReader(hosts), data)
    case 'custom': return customExtractor(param.factory!, data)
    default: return wholeObject[kind]!
  }
}

function keyedExtractor (kind: 'param' | 'query' | 'body' | 'headers', data: string): Extractor {
  switch (kind) {
    case 'param': return (req) => (req.params as Record<string, unknown>)[data]
    case 'query': return (req) => (req.query as Record<string, unknown>)[data]
    case 'body': return (req) => ownProperty(req.body, data)
    case 'headers': return (req) => req.headers[data]
  }
}

function hostExtractor (read: (req: FastifyRequest) => Record<string, string>, data: string | undefined): Extractor {
  return data === undefined ? (req) => read(req) : (req) => read(req)[data]
}

function customExtractor (factory: NonNullable<ParamDefinition['factory']>, data: unknown): Extractor {
  return (req, reply, ctx) => factory(data, ctx!)
}

// A signed cookie's value when its signature verifies, else undefined, as NestJS gives it.
function signedCookie (req: CookieRequest, name: string): string | undefined {
  const value = ownProperty(req.cookies, name) as string | undefined
  if (value === undefined) return undefined
  const unsigned = req.unsignCookie(value)
  return unsigned.valid ? unsigned.value ?? undefined : undefined
}

function signedCookies (req: CookieRequest): Record<string, string> {
  const verified: Record<string, string> = Object.create(null)
  // null when @fastify/cookie was told not to parse on a hook ({ hook: false }).
  if (req.cookies === null) return verified
  for (const name of Object.keys(req.cookies)) {
    const value = signedCookie(req, name)
    if (value !== undefined) verified[name] = value
  }
  return verified
}

function ownProperty (body: unknown, key: string): unknown {
  if (body === null || body === undefined) return body
  return Object.prototype.hasOwnProperty.call(body, key) ? (body as Record<string, unknown>)[key] : undefined
}

// A parameter's pipes in the order they run: global, controller, handler, then its own; the
// planner gives the list of a parameter with pipes of its own, the others run the handler's.
export function pipesOf (handlerPipes: Array<EnhancerRef<PipeTransform>>, param: ParamDefinition, inOrder: Array<EnhancerRef<PipeTransform>> | undefined): Array<EnhancerRef<PipeTransform>> {
  if (!pipeableKinds.has(param.kind)) return noEntries
  return inOrder ?? handlerPipes
}

/** Per parameter: extract, then run its pipes in order (global, controller, handler, parameter). */
export function argumentResolver (param: ParamDefinition, paramTypes: unknown[] | undefined, hosts: Host[], refs: EnhancerRefs, pipes: Array<EnhancerRef<PipeTransform>>): Extractor {
  const extract = extractor(param, hosts)
  if (pipes.length === 0) return extract
  const metadata: ArgumentMetadata = {
    type: (['param', 'query', 'body'].includes(param.kind) ? param.kind : 'custom') as ArgumentMetadata['type'],
    metatype: paramTypes?.[param.index] as Type | undefined,
    data: param.data
  }
  return piped(extract, pipes, metadata, refs)
}

// A parameter index no decorator claims: undefined, as NestJS passes.
export const noArgument = (): undefined => undefined
