import type createErrorType from '@fastify/error'
import type fastifyPluginType from 'fastify-plugin'
import requirePeer from './require-peer.cjs'
import importPeer from './import-peer.cjs'

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

/**
 * An optional peer that may be an ES module only (NestJS's packages), imported: undefined when it
 * is not installed. Where the host gives no import() (Jest's CommonJS mode), required instead.
 * Anything else that stops it loading is thrown, naming the peer, rather than taken for "not
 * installed" (which would silently ignore what the application declares with it).
 */
export async function importOptionalPeer<T = any> (name: string): Promise<T | undefined> {
  let failed: unknown
  try {
    return await importPeer(name)
  } catch (error) {
    if (notFound(error, name)) return undefined
    failed = error
  }
  if (!/^ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING/.test(String((failed as { code?: unknown })?.code))) throw couldNotLoad(name, failed)
  try {
    return requirePeer(name) as T
  } catch (error) {
    // Neither imported nor required (an ES module Jest does not transform): nothing in this
    // process can have loaded it, nor declared anything with it.
    if (notFound(error, name) || refusedAsEsm(error)) return undefined
    throw couldNotLoad(name, error)
  }
}

const couldNotLoad = (name: string, error: unknown): Error => new Error(`${name} is installed but could not be loaded: ${(error as Error)?.message ?? String(error)}`, { cause: error })

// require() refused an ES module: Node's code, or the message of loaders such as Jest's.
function refusedAsEsm (error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'ERR_REQUIRE_ESM' || /Must use import to load ES Module/.test(String((error as Error)?.message))
}

// Node says ERR_MODULE_NOT_FOUND for an import, MODULE_NOT_FOUND for a require (so do loaders
// such as Jest's); only when the missing module is the peer itself, not one of its dependencies
// (whose message names the peer's files only after "imported from" or "from").
function notFound (error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown, message?: unknown }
  if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || typeof message !== 'string') return false
  const missing = message.split(/ (?:imported )?from |\n/, 1)[0]
  const pkg = name.startsWith('@') ? name.split('/', 2).join('/') : name.split('/', 1)[0]
  return missing.includes(`'${pkg}'`) || missing.includes(`'${pkg}/`) || missing.includes(`/node_modules/${pkg}/`)
}
