import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CanActivate, ExecutionContext, Type } from '../../types/index.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { HttpExecutionContext } from './execution-context.js'
import { ForbiddenException } from '../common/exceptions.js'
import { asError } from '../util/thrown.js'
import { andThen, steps } from '../util/thenable.js'
import { settle } from './results.js'

const activate = (guard: CanActivate, ctx: ExecutionContext): unknown => settle(guard.canActivate(ctx))

/**
 * Guard i's turn, for `steps(undefined, guards.length, check, req, ctx)`: its verdict, now when it
 * has one, and `deny()` thrown on a refusal. Routes and gateway handlers run their guards through
 * it; only a route's guards can be request-scoped (gateways refuse them), so only a route's `req`
 * is used to resolve one.
 */
export function guardCheck<Q> (guards: Array<EnhancerRef<CanActivate>>, refs: EnhancerRefs, deny: () => Error) {
  const allow = (allowed: unknown): undefined => {
    if (!allowed) throw deny()
    return undefined
  }
  return (_: undefined, i: number, req: Q, ctx: ExecutionContext): undefined | PromiseLike<undefined> => {
    const { value } = guards[i]
    return andThen(value !== undefined ? activate(value, ctx) : andThen(refs.get(guards[i], req as FastifyRequest), activate, ctx), allow)
  }
}

const forbidden = (): Error => new ForbiddenException('Forbidden resource')

/** Guards as a route-level preValidation hook: body parsed, schema not yet checked. */
export function buildGuardHook (guards: Array<EnhancerRef<CanActivate>>, plan: { cls: Type, method: (...args: any[]) => any }, refs: EnhancerRefs) {
  const { cls, method } = plan
  const check = guardCheck<FastifyRequest>(guards, refs, forbidden)
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
