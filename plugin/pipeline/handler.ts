import type { FastifyReply, FastifyRequest } from 'fastify'
import type { NestInterceptor, ObservableLike, PipeTransform, Type } from '../../types/index.js'
import type { ParamDefinition } from '../decorators/params.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import type { Binding, Box, Container } from '../di/container.js'
import { HttpExecutionContext } from './execution-context.js'
import { andThen, isThenable } from '../util/thenable.js'
import type { RedirectDefinition } from '../decorators/http.js'
import { ERR_INVALID_REDIRECT } from '../util/errors.js'
import { PendingPayload, isStreamableFile, payloadOf, streamOf } from '../common/streamable-file.js'
import type { Host } from '../decorators/host.js'
import { interceptorChain, type Invoke as RouteInvoke } from './interceptor-chain.js'
import { argumentResolver, noArgument, pipesOf, type Extractor } from './arguments.js'
import { isPending, lastValue, unwrap } from './results.js'
import type { SseDefinition } from '../decorators/sse.js'
import { eventStream, observed } from './event-stream.js'

// What Node accepts in a header value.
const invalidHeaderChar = /[^\t\x20-\x7e\x80-\xff]/

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown
/** What @fastify/view (an optional peer, never imported here) adds to the reply. */
type ViewReply = FastifyReply & { view: (name: string, data: unknown) => unknown }

/** What the route handler is composed from: a handler's declarations, resolved. */
export interface HandlerPlan {
  key: string | symbol
  method: (...args: any[]) => any
  params: ParamDefinition[]
  /** The parameters' design types, where emitted. */
  paramTypes: unknown[] | undefined
  status: number
  headers: Array<[string, string]>
  redirect?: RedirectDefinition
  render?: string
  cls: Type
  controller: Binding
  pipes: Array<EnhancerRef<PipeTransform>>
  interceptors: Array<EnhancerRef<NestInterceptor>>
  /** The route's host constraint: the handler's own, else its controller's. */
  hosts: Host[]
  /** Given for an @Sse() route. */
  sse?: SseDefinition
}

type Invoke = RouteInvoke<FastifyRequest, FastifyReply>

/**
 * Composes the route handler once: arguments, interceptors, then the response. Each part comes
 * from a function of its own, so a route keeps only the closures its path takes, holding only
 * what they read: not the plan, nor the interceptor chain of a route without interceptors.
 * `paramPipes`: the pipes of each parameter that has pipes of its own, the handler's first.
 */
export function buildHandler (plan: HandlerPlan, container: Container, refs: EnhancerRefs, paramPipes: Map<ParamDefinition, Array<EnhancerRef<PipeTransform>>> | undefined): Handler {
  const { controller, status, headers, interceptors, params } = plan
  // Indexed loops, no copies: startup code (plugin/README.md).
  let argCount = 0
  for (let i = 0; i < params.length; i++) argCount = Math.max(argCount, params[i].index + 1)
  const resolvers: Extractor[] = new Array(argCount).fill(noArgument)
  const awaited: boolean[] = new Array(argCount).fill(false)
  let asyncArgs = false
  let custom = false
  let handsReply = false
  for (let i = 0; i < params.length; i++) {
    const param = params[i]
    const pipes = pipesOf(plan.pipes, param, paramPipes?.get(param))
    resolvers[param.index] = argumentResolver(param, plan.paramTypes, plan.hosts, refs, pipes)
    // A custom decorator's factory may be async: its value is awaited, as when it has pipes.
    const piped = pipes.length > 0 || param.kind === 'custom'
    awaited[param.index] = piped
    asyncArgs ||= piped
    custom ||= param.kind === 'custom'
    handsReply ||= param.kind === 'res' && !param.passthrough
  }
  const needsContext = interceptors.length > 0 || custom
  handsReply &&= plan.render === undefined
  const sse = plan.sse !== undefined
  const plain = headers.length === 0 && !handsReply && plan.redirect === undefined && plan.render === undefined && !sse
  if (plain && !controller.perRequest && !needsContext && !asyncArgs) return plainHandler(controller, plan.key, resolvers, awaited, status)
  let call = invoker(plan.key, resolvers, awaited)
  // Interceptors of an event stream see each event: an async iterable goes to them as an Observable.
  if (sse && interceptors.length > 0) call = observedCall(call)
  const run = interceptors.length === 0 ? call : interceptorChain(call, interceptors, refs, sse)
  const prepare = status === 200 && headers.length === 0 ? undefined : shaper(status, headers)
  const proceed = proceeder(run, prepare, responder(plan, handsReply), needsContext ? plan : undefined, sse ? asIs : unwrap)
  return controller.perRequest ? scopedHandler(proceed, controller, container) : singletonHandler(proceed, controller)
}

// Calls the method with its arguments; sync when nothing needs awaiting.
function invoker (key: string | symbol, resolvers: Extractor[], awaited: boolean[]): Invoke {
  if (resolvers.length === 0) return (instance) => instance[key]()
  if (resolvers.length > 1) return invokerOfMany(key, resolvers, awaited)
  return invokerOfOne(key, resolvers[0], awaited[0])
}

function invokerOfOne (key: string | symbol, resolve: Extractor, awaited: boolean): Invoke {
  // A single argument is awaited only when piped: the reply is thenable too.
  if (awaited) return (instance, req, reply, ctx) => andThen(resolve(req, reply, ctx), callWith, instance, key)
  return (instance, req, reply, ctx) => instance[key](resolve(req, reply, ctx))
}

const callWith = (arg: unknown, instance: any, key: string | symbol): unknown => instance[key](arg)

function invokerOfMany (key: string | symbol, resolvers: Extractor[], awaited: boolean[]): Invoke {
  const argCount = resolvers.length
  return (instance, req, reply, ctx) => {
    const args = new Array(argCount)
    // Only piped values are awaited: the reply is thenable and would wait for its own sending.
    // `pending`: the index of the one value pending, or -2 when several are.
    let pending = -1
    for (let i = 0; i < argCount; i++) {
      const arg = args[i] = resolvers[i](req, reply, ctx)
      if (awaited[i] && isThenable(arg)) pending = pending === -1 ? i : -2
    }
    if (pending === -1) return instance[key](...args)
    if (pending >= 0) {
      return Promise.resolve(args[pending]).then((value) => {
        args[pending] = value
        return instance[key](...args)
      })
    }
    return Promise.all(args.map((arg, i) => awaited[i] ? arg : undefined)).then((values) => {
      for (let i = 0; i < argCount; i++) if (awaited[i]) args[i] = values[i]
      return instance[key](...args)
    })
  }
}

function shaper (status: number, headers: HandlerPlan['headers']) {
  return (reply: FastifyReply): void => {
    if (status !== 200) reply.code(status)
    for (const [name, value] of headers) reply.header(name, value)
  }
}

/**
 * The hot path: a singleton controller, no pipeline, no headers to add. The method is called
 * from the handler itself, so such a route holds one closure; its status is set first (201 for
 * every @Post), as Fastify then sends it with whatever the method gives.
 */
function plainHandler (controller: Binding, key: string | symbol, resolvers: Extractor[], awaited: boolean[], status: number): Handler {
  if (resolvers.length === 0) return plainHandlerOfNone(controller, key, status)
  if (resolvers.length === 1) return plainHandlerOfOne(controller, key, resolvers[0], status)
  return plainHandlerOfMany(controller, invokerOfMany(key, resolvers, awaited), status)
}

// One function per arity: a closure keeps its function's whole scope, and these keep only what they read.
function plainHandlerOfNone (controller: Binding, key: string | symbol, status: number): Handler {
  return function fdpHandler (req, reply) {
    if (status !== 200) reply.code(status)
    return answer((controller.instance as any)[key](), reply)
  }
}

function plainHandlerOfOne (controller: Binding, key: string | symbol, resolve: Extractor, status: number): Handler {
  return function fdpHandler (req, reply) {
    if (status !== 200) reply.code(status)
    return answer((controller.instance as any)[key](resolve(req, reply, undefined)), reply)
  }
}

function plainHandlerOfMany (controller: Binding, run: Invoke, status: number): Handler {
  return function fdpHandler (req, reply) {
    if (status !== 200) reply.code(status)
    return answer(run(controller.instance, req, reply, undefined), reply)
  }
}

// What a plain handler's method gave, as Fastify takes it.
function answer (result: unknown, reply: FastifyReply): unknown {
  if (result === undefined) { reply.send(); return }
  if (typeof result !== 'object' || result === null) return result
  // Only a StreamableFile needs the reply: anything else goes to Fastify as it is.
  if (isStreamableFile(result)) return streamOf(result, reply)
  if (isThenable(result)) return new PendingPayload(result, reply)
  if (typeof (result as Partial<ObservableLike>).subscribe !== 'function') return result
  const last = lastValue(result as ObservableLike)
  if (isThenable(last)) return new PendingPayload(last, reply)
  // As Fastify answers a promise of undefined: an empty body.
  if (last === undefined) { reply.send(); return }
  return payloadOf(last, reply)
}

type Proceed = (instance: unknown, req: FastifyRequest, reply: FastifyReply) => unknown
type Respond = (result: unknown, reply: FastifyReply) => unknown

/**
 * The method called and its result answered, sync until something is pending: Fastify catches a
 * synchronous throw as it does a rejection. `context`: given when an execution context is needed.
 */
function proceeder (run: Invoke, prepare: ((reply: FastifyReply) => void) | undefined, respond: Respond, context: Pick<HandlerPlan, 'cls' | 'method'> | undefined, settleValue: (value: unknown) => unknown): Proceed {
  const cls = context?.cls
  const method = context?.method
  // respond(await settle(value)): now when the value is there, else in Fastify's reaction to it.
  const finish = (value: unknown, reply: FastifyReply): unknown => {
    const settled = settleValue(value)
    return isThenable(settled) ? new PendingPayload(settled, reply, respond) : respond(settled, reply)
  }
  return (instance, req, reply) => {
    prepare?.(reply)
    const ctx = cls !== undefined ? new HttpExecutionContext(req, reply, cls, method!) : undefined
    const result = run(instance, req, reply, ctx)
    // Pending: finished inside the reaction Fastify adds, not in a promise of its own.
    return isPending(result) ? new PendingPayload(result, reply, finish) : finish(result, reply)
  }
}

function singletonHandler (proceed: Proceed, controller: Binding): Handler {
  return function fdpHandler (req, reply) {
    return proceed(controller.instance, req, reply)
  }
}

function scopedHandler (proceed: Proceed, controller: Binding, container: Container): Handler {
  const proceedWith = (box: Box, req: FastifyRequest, reply: FastifyReply): unknown => proceed(box.value, req, reply)
  return function fdpHandler (req, reply) {
    return andThen(container.scoped(controller, req), proceedWith, req, reply)
  }
}

// An event stream's Observable is streamed, not waited for.
const asIs = (value: unknown): unknown => value

function observedCall (call: Invoke): Invoke {
  return (instance, req, reply, ctx) => andThen(call(instance, req, reply, ctx), observed)
}

// A handler that took @Res() answers itself; returning the reply makes Fastify wait for it.
const replyItself: Respond = (result, reply) => reply
const send: Respond = (result, reply) => result === undefined ? reply.send() : payloadOf(result, reply)

// Shared where nothing differs; otherwise a closure over just the view name or redirect.
function responder (plan: HandlerPlan, handsReply: boolean): Respond {
  const { redirect, render, cls, key, sse } = plan
  if (sse !== undefined) {
    const name = `${cls.name}.${String(key)}`
    return (result, reply) => eventStream(result, reply, sse, name)
  }
  if (render !== undefined) return (result, reply) => (reply as ViewReply).view(render, result)
  if (redirect !== undefined) return redirector(redirect, cls, key)
  return handsReply ? replyItself : send
}

function redirector (redirect: RedirectDefinition, cls: Type, key: string | symbol): Respond {
  return (result, reply) => {
    const given = (typeof result === 'object' && result !== null ? result : {}) as Partial<RedirectDefinition>
    const url = given.url ?? redirect.url
    // Node refuses such a Location header only once the reply is written; fail here, naming the handler.
    if (typeof url === 'string' && invalidHeaderChar.test(url)) {
      throw new ERR_INVALID_REDIRECT(`${cls.name}.${String(key)} returned a redirect URL with characters not allowed in a header (CR, LF or other control characters). Validate or encode redirect targets built from request data.`)
    }
    return reply.redirect(url, given.statusCode ?? redirect.statusCode)
  }
}
