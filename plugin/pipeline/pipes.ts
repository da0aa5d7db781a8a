import type { FastifyRequest } from 'fastify'
import type { ArgumentMetadata, PipeTransform } from '../../types/index.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { andThen, steps } from '../util/thenable.js'

type Extract<Q, R, C> = (req: Q, reply: R, ctx?: C) => unknown

/**
 * `extract`, then `pipes` in order over its value: synchronously while the pipes are, a promise
 * only once a pipe or a value is one. A route's parameters are taken from (request, reply,
 * context), a gateway handler's from (arguments, context); only a route's pipes can be
 * request-scoped (gateways refuse them), so only a route's `req` is used to resolve one.
 */
export function piped<Q, R, C> (extract: Extract<Q, R, C>, pipes: Array<EnhancerRef<PipeTransform>>, metadata: ArgumentMetadata, refs: EnhancerRefs): Extract<Q, R, C> {
  const apply = (pipe: PipeTransform, value: unknown): unknown => pipe.transform(value, metadata)
  const transform = (value: unknown, i: number, req: Q): unknown => andThen(refs.get(pipes[i], req as FastifyRequest), apply, value)
  if (pipes.length === 1) {
    // The common case, without the loop: one pipe, whose instance is there unless request-scoped.
    const [pipe] = pipes
    const first = (value: unknown, req: Q): unknown => pipe.value !== undefined ? pipe.value.transform(value, metadata) : transform(value, 0, req)
    return (req, reply, ctx) => andThen(extract(req, reply, ctx), first, req)
  }
  return (req, reply, ctx) => steps(extract(req, reply, ctx), pipes.length, transform, req, undefined)
}
