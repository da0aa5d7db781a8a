import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CanActivate, ExecutionContext, Type } from '../../types/index.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { HttpExecutionContext } from './execution-context.js'
import { ForbiddenException } from '../common/exceptions.js'
import { asError } from '../util/thrown.js'
import { andThen, steps } from '../util/thenable.js'
import { settle } from './results.js'

/** Guards as a route-level preValidation hook: body parsed, schema not yet checked. */
export function buildGuardHook (guards: Array<EnhancerRef<CanActivate>>, plan: { cls: Type, method: (...args: any[]) => any }, refs: EnhancerRefs) {
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
