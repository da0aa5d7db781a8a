import type { FastifyPluginCallback } from 'fastify'
import { optionalPeer } from '../util/peers.js'
import { ERR_MISSING_PEER } from '../util/errors.js'

/** @fastify/cors, which `enableCors()` registers, as NestJS's Fastify adapter does. `name` only exists for tests. */
export function loadCors (name = '@fastify/cors'): FastifyPluginCallback<any> {
  return optionalPeer(name, (cause) => new ERR_MISSING_PEER(`enableCors() registers ${name}, the optional peer dependency, which could not be loaded. Install it: npm install @fastify/cors`, { cause }))
}
