import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ArgumentMetadata, CallHandler, CanActivate, ExecutionContext, NestInterceptor, ObservableLike, PipeTransform, Type } from '../types/index.js'
import type { ParamDefinition } from './params.js'
import type { HandlerScan } from './controller-scan.js'
import type { EnhancerRef, EnhancerRefs } from './enhancer-ref.js'
import type { Binding, Box, Container } from './container.js'
import { HttpExecutionContext } from './execution-context.js'
import { ForbiddenException } from './exceptions.js'
import { asError } from './thrown.js'
import { andThen, isThenable, steps } from './thenable.js'
import type { RedirectDefinition } from './http.js'
import { uploadExtractor } from './multipart.js'
import { ERR_INVALID_REDIRECT } from './errors.js'
import { PendingPayload, isStreamableFile, payloadOf, streamOf } from './streamable-file.js'
import { hostParamsReader, type Host } from './host.js'
import { handled } from './call-handler.js'

// What Node accepts in a header value.
const invalidHeaderChar = /[^\t\x20-\x7e\x80-\xff]/

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown
/** What @fastify/view (an optional peer, never imported here) adds to the reply. */
type ViewReply = FastifyReply & { view: (name: string, data: unknown) => unknown }
type Extractor = (request: FastifyRequest, reply: FastifyReply, ctx: ExecutionContext | undefined) => unknown

/** What the route handler and guard hook are composed from: a handler's declarations, resolved. */
export interface HandlerPlan extends Pick<HandlerScan, 'key' | 'method' | 'params' | 'paramTypes' | 'status' | 'headers' | 'redirect' | 'render'> {
  cls: Type
  controller: Binding
  pipes: Array<EnhancerRef<PipeTransform>>
  interceptors: Array<EnhancerRef<NestInterceptor>>
  /** The route's host constraint: the handler's own, else its controller's. */
  hosts: Host[]
}

const pipeableKinds = new Set(['param', 'query', 'body', 'custom', 'rawBody', 'file', 'files'])

function isObservable (value: unknown): value is ObservableLike {
  return typeof value === 'object' && value !== null && typeof (value as ObservableLike).subscribe === 'function' && !isThenable(value)
}

/** The last value of an Observable-like (rxjs or any object with `subscribe`). */
export function lastValue (observable: ObservableLike): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let last: unknown
    observable.subscribe({ next: (value) => { last = value }, error: reject, complete: () => resolve(last) })
  })
}

const unwrap = (value: unknown): unknown => isObservable(value) ? lastValue(value) : value

// What `await` then an Observable's last value give: a promise only when something was pending.
function settle (value: unknown): unknown {
  return andThen(value, unwrap)
}

function extractor (param: ParamDefinition, plan: HandlerPlan): Extractor {
  const { data } = param
  switch (param.kind) {
    case 'param': return data === undefined ? (req) => req.params : (req) => (req.params as Record<string, unknown>)[data]
    case 'query': return data === undefined ? (req) => req.query : (req) => (req.query as Record<string, unknown>)[data]
    case 'body': return data === undefined ? (req) => req.body : (req) => ownProperty(req.body, data)
    case 'headers': return data === undefined ? (req) => req.headers : (req) => req.headers[data]
    case 'req': return (req) => req
    case 'res': return (req, reply) => reply
    case 'ip': return (req) => req.ip
    case 'rawBody': return (req) => (req as FastifyRequest & { rawBody?: Buffer }).rawBody
    case 'file':
    case 'files': return uploadExtractor(param)
    case 'host': {
      const read = hostParamsReader(plan.hosts)
      return data === undefined ? (req) => read(req) : (req) => read(req)[data]
    }
    case 'custom': {
      const factory = param.factory!
      return (req, reply, ctx) => factory(data, ctx!)
    }
  }
}

function ownProperty (body: unknown, key: string): unknown {
  if (body === null || body === undefined) return body
  return Object.prototype.hasOwnProperty.call(body, key) ? (body as Record<string, unknown>)[key] : undefined
}

/** Per parameter: extract, then run its pipes in order (global, controller, handler, parameter). */
function argumentResolver (plan: HandlerPlan, param: ParamDefinition, refs: EnhancerRefs, paramPipes: Array<EnhancerRef<PipeTransform>>): { resolve: Extractor, piped: boolean } {
  const extract = extractor(param, plan)
  const pipes = pipeableKinds.has(param.kind) ? [...plan.pipes, ...paramPipes] : []
  // A custom decorator's factory may be async: its value is awaited, as when it has pipes.
  if (pipes.length === 0) return { resolve: extract, piped: param.kind === 'custom' }
  const metadata: ArgumentMetadata = {
    type: (['param', 'query', 'body'].includes(param.kind) ? param.kind : 'custom') as ArgumentMetadata['type'],
    metatype: plan.paramTypes?.[param.index] as Type | undefined,
    data: param.data
  }
  const apply = (pipe: PipeTransform, value: unknown): unknown => pipe.transform(value, metadata)
  // Sync while the pipes are: a promise only once a pipe or a value is one.
  const transform = (value: unknown, i: number, req: FastifyRequest): unknown => andThen(refs.get(pipes[i], req), apply, value)
  if (pipes.length === 1) {
    // The common case, without the loop: one pipe, whose instance is there unless request-scoped.
    const [pipe] = pipes
    const first = (value: unknown, req: FastifyRequest): unknown => pipe.value !== undefined ? pipe.value.transform(value, metadata) : transform(value, 0, req)
    return { resolve: (req, reply, ctx) => andThen(extract(req, reply, ctx), first, req), piped: true }
  }
  return { resolve: (req, reply, ctx) => steps(extract(req, reply, ctx), pipes.length, transform, req, undefined), piped: true }
}

// What `await next.handle()` gives: always a promise, rejected when the rest of the chain throws synchronously.
function toPromise (run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(settle(run()))
  } catch (error) {
    return Promise.reject(error)
  }
}

const interceptWith = (interceptor: NestInterceptor, ctx: ExecutionContext, next: CallHandler): unknown => interceptor.intercept(ctx, next)

/** Composes the route handler once: arguments, interceptors, then the response. */
export function buildHandler (plan: HandlerPlan, container: Container, refs: EnhancerRefs, paramPipes: (param: ParamDefinition) => Array<EnhancerRef<PipeTransform>>): Handler {
  const { controller, key, cls, method, status, headers, interceptors } = plan
  const params = [...plan.params].sort((a, b) => a.index - b.index)
  const argCount = params.length === 0 ? 0 : params[params.length - 1].index + 1
  const resolvers: Extractor[] = new Array(argCount).fill(() => undefined)
  const awaited: boolean[] = new Array(argCount).fill(false)
  let asyncArgs = false
  for (const param of params) {
    const { resolve, piped } = argumentResolver(plan, param, refs, paramPipes(param))
    resolvers[param.index] = resolve
    awaited[param.index] = piped
    asyncArgs ||= piped
  }
  const needsContext = interceptors.length > 0 || params.some((param) => param.kind === 'custom')
  const handsReply = params.some((param) => param.kind === 'res' && !param.passthrough) && plan.render === undefined
  const perRequest = controller.perRequest

  const callWith = (arg: unknown, instance: any): unknown => instance[key](arg)
  // Calls the method with its arguments; sync when nothing needs awaiting.
  const call = (instance: any, req: FastifyRequest, reply: FastifyReply, ctx: ExecutionContext | undefined): unknown => {
    if (argCount === 0) return instance[key]()
    if (argCount === 1) {
      const arg = resolvers[0](req, reply, ctx)
      // A single argument is awaited only when piped: the reply is thenable too.
      return awaited[0] ? andThen(arg, callWith, instance) : instance[key](arg)
    }
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

  const respond = responder(plan, handsReply)

  // Interceptor i; what it gives is settled by its caller: handle() for inner ones, proceed for the outermost.
  const intercept = (instance: unknown, req: FastifyRequest, reply: FastifyReply, ctx: ExecutionContext, i: number): unknown => {
    // Per interceptor call, two closures over its arguments and the `next` object: `rest` runs
    // the rest of the chain (again on each subscription), `handle` is NestJS's own function
    // (`const { handle } = next` works).
    const rest = (): unknown => i + 1 === interceptors.length ? call(instance, req, reply, ctx) : intercept(instance, req, reply, ctx, i + 1)
    const next: CallHandler = { handle: () => handled(rest, toPromise) as any }
    // A static interceptor's instance is there; a request-scoped one may be pending.
    const { value } = interceptors[i]
    return value !== undefined ? value.intercept(ctx, next) : andThen(refs.get(interceptors[i], req), interceptWith, ctx, next)
  }
  const run = interceptors.length === 0
    ? call
    : (instance: any, req: FastifyRequest, reply: FastifyReply, ctx: ExecutionContext | undefined): unknown => intercept(instance, req, reply, ctx!, 0)

  const prepare = status === 200 && headers.length === 0
    ? undefined
    : (reply: FastifyReply) => {
        if (status !== 200) reply.code(status)
        for (const [name, value] of headers) reply.header(name, value)
      }

  if (!perRequest && !needsContext && prepare === undefined && !handsReply && plan.redirect === undefined && plan.render === undefined && !asyncArgs) {
    // The hot path: a singleton controller, no pipeline, nothing to shape.
    return function fdpHandler (req, reply) {
      const result = run(controller.instance, req, reply, undefined)
      if (result === undefined) { reply.send(); return }
      if (typeof result !== 'object' || result === null) return result
      // Only a StreamableFile needs the reply: anything else goes to Fastify as it is.
      if (isStreamableFile(result)) return streamOf(result, reply)
      if (isThenable(result)) return new PendingPayload(result, reply)
      return typeof (result as Partial<ObservableLike>).subscribe === 'function' ? new PendingPayload(lastValue(result as ObservableLike), reply) : result
    }
  }

  // Sync until something is pending: Fastify catches a synchronous throw as it does a rejection.
  const proceed = (instance: unknown, req: FastifyRequest, reply: FastifyReply): unknown => {
    prepare?.(reply)
    const ctx = needsContext ? new HttpExecutionContext(req, reply, cls, method) : undefined
    const result = run(instance, req, reply, ctx)
    // Pending: finished inside the reaction Fastify adds, not in a promise of its own.
    return isThenable(result) ? new PendingPayload(result, reply, finish) : finish(result, reply)
  }
  // respond(await settle(value)): now when the value is there, else in Fastify's reaction to it.
  const finish = (value: unknown, reply: FastifyReply): unknown => {
    const settled = unwrap(value)
    return isThenable(settled) ? new PendingPayload(settled, reply, respond) : respond(settled, reply)
  }
  const proceedWith = (box: Box, req: FastifyRequest, reply: FastifyReply): unknown => proceed(box.value, req, reply)
  return function fdpHandler (req, reply) {
    if (!perRequest) return proceed(controller.instance, req, reply)
    return andThen(container.scoped(controller, req), proceedWith, req, reply)
  }
}

function responder (plan: HandlerPlan, handsReply: boolean) {
  const { redirect, render } = plan
  if (render !== undefined) return (result: unknown, reply: FastifyReply) => (reply as ViewReply).view(render, result)
  if (redirect !== undefined) {
    return (result: unknown, reply: FastifyReply) => {
      const given = (typeof result === 'object' && result !== null ? result : {}) as Partial<RedirectDefinition>
      const url = given.url ?? redirect.url
      // Node refuses such a Location header only once the reply is written; fail here, naming the handler.
      if (typeof url === 'string' && invalidHeaderChar.test(url)) {
        throw new ERR_INVALID_REDIRECT(`${plan.cls.name}.${String(plan.key)} returned a redirect URL with characters not allowed in a header (CR, LF or other control characters). Validate or encode redirect targets built from request data.`)
      }
      return reply.redirect(url, given.statusCode ?? redirect.statusCode)
    }
  }
  // A handler that took @Res() answers itself; returning the reply makes Fastify wait for it.
  if (handsReply) return (result: unknown, reply: FastifyReply) => reply
  return (result: unknown, reply: FastifyReply) => {
    if (result === undefined) return reply.send()
    return payloadOf(result, reply)
  }
}

/** Guards as a route-level preValidation hook: body parsed, schema not yet checked. */
export function buildGuardHook (guards: Array<EnhancerRef<CanActivate>>, plan: Pick<HandlerPlan, 'cls' | 'method'>, refs: EnhancerRefs) {
  const { cls, method } = plan
  const activate = (guard: CanActivate, ctx: ExecutionContext): unknown => settle(guard.canActivate(ctx))
  const allow = (allowed: unknown): undefined => {
    if (!allowed) throw new ForbiddenException('Forbidden resource')
    return undefined
  }
  const check = (_: undefined, i: number, req: FastifyRequest, ctx: ExecutionContext): undefined | PromiseLike<undefined> => {
    const { value } = guards[i]
    return andThen(value !== undefined ? activate(value, ctx) : andThen(refs.get(guards[i], req), activate, ctx), allow)
  }
  // A callback-style hook, so guards that answer synchronously cost no promise.
  return function fdpGuards (req: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    let pending: undefined | PromiseLike<undefined>
    try {
      pending = steps(undefined, guards.length, check, req, new HttpExecutionContext(req, reply, cls, method))
    } catch (error) {
      done(asError(error))
      return
    }
    // done() runs the rest of the request, so it is called outside the try.
    if (pending === undefined) done()
    else pending.then(() => done(), (error) => done(asError(error)))
  }
}
