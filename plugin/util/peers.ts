import type createErrorType from '@fastify/error'
import type fastifyPluginType from 'fastify-plugin'
import requirePeer from './require-peer.cjs'

// The package's CommonJS dependencies, required rather than imported: for an ES import Node runs
// its CommonJS export lexer over the package's source, which costs startup several times what
// loading it does. Both export their function as module.exports.
export const createError = requirePeer('@fastify/error') as typeof createErrorType
export const fp = requirePeer('fastify-plugin') as typeof fastifyPluginType

const loaded = new Map<string, unknown>()

/**
 * An optional peer dependency (class-validator, @fastify/cors, ...), loaded on first use and kept:
 * the one place they are loaded. `missing` makes the error naming who needs it and how to install it.
 */
export function optionalPeer<T = any> (name: string, missing: (cause: unknown) => Error): T {
  if (loaded.has(name)) return loaded.get(name) as T
  let value: unknown
  try {
    value = requirePeer(name)
  } catch (error) {
    throw missing(error)
  }
  loaded.set(name, value)
  return value as T
}
