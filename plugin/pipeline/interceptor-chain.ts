import type { FastifyRequest } from 'fastify'
import type { CallHandler, ExecutionContext, NestInterceptor } from '../../types/index.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { andThen, promised } from '../util/thenable.js'
import { handled, streamed } from './call-handler.js'
import { settle } from './results.js'

// The interceptors of a route or of a gateway handler, composed once around the call they wrap.

// What `await next.handle()` gives: always a promise, rejected when the rest of the chain throws synchronously.
const settleRun = (run: () => unknown): unknown => settle(run())
// `run` handed to `promised` as its argument: no closure per call.
const toPromise = (run: () => unknown): Promise<unknown> => promised(settleRun, run)

const handledRun = (run: () => unknown): unknown => handled(run, toPromise)

const interceptWith = (interceptor: NestInterceptor, ctx: ExecutionContext, next: CallHandler): unknown => interceptor.intercept(ctx, next)

/** A route's call (instance, request, reply, context), or a gateway handler's (instance, arguments, nothing, context). */
export type Invoke<Q = FastifyRequest, R = unknown> = (instance: any, req: Q, reply: R, ctx: ExecutionContext | undefined) => unknown

/**
 * The interceptors around `call`, outermost first. Only a route's interceptors can be
 * request-scoped (gateways refuse them), so only a route's `req` is ever used to resolve one.
 * `stream`: an @Sse() route's, whose `next.handle()` is an Observable only.
 */
export function interceptorChain<Q, R> (call: Invoke<Q, R>, interceptors: Array<EnhancerRef<NestInterceptor>>, refs: EnhancerRefs, stream = false): Invoke<Q, R> {
  const handleOf = stream ? streamed : handledRun
  // Interceptor i; what it gives is settled by its caller: handle() for inner ones, proceed for the outermost.
  const intercept = (instance: unknown, req: Q, reply: R, ctx: ExecutionContext, i: number): unknown => {
    // Per interceptor call, two closures over its arguments and the `next` object: `rest` runs
    // the rest of the chain (again on each subscription), `handle` is NestJS's own function
    // (`const { handle } = next` works).
    const rest = (): unknown => i + 1 === interceptors.length ? call(instance, req, reply, ctx) : intercept(instance, req, reply, ctx, i + 1)
    const next: CallHandler = { handle: () => handleOf(rest) as any }
    // A static interceptor's instance is there; a request-scoped one may be pending.
    const { value } = interceptors[i]
    return value !== undefined ? value.intercept(ctx, next) : andThen(refs.get(interceptors[i], req as FastifyRequest), interceptWith, ctx, next)
  }
  return (instance, req, reply, ctx) => intercept(instance, req, reply, ctx!, 0)
}
