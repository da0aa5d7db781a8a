import type { FastifyInstance } from 'fastify'
import type { TokenAliases } from '../container.js'
import type { InjectionToken, Type } from '../../types/index.js'
import { Reflector } from '../reflector.js'
import { REQUEST } from '../tokens.js'
import { FastifyAdapterHost } from './http-adapter.js'

// The classes of @nestjs/core that NestJS code injects by type; told apart by identity once
// @nestjs/core is loaded, and loaded only when a token of that name is in the application.
const coreClasses = new Set(['Reflector', 'HttpAdapterHost'])

/** Whether `token` may be one of @nestjs/core's classes the plugin stands in for. */
export function mayBeCoreToken (token: unknown): token is Function {
  return typeof token === 'function' && coreClasses.has(token.name) && token !== Reflector
}

/** NestJS's tokens as the plugin's: its strings, and @nestjs/core's classes among `candidates`. */
export async function nestTokens (candidates: Set<Function>, app: FastifyInstance): Promise<TokenAliases> {
  const aliases: TokenAliases = new Map<InjectionToken, InjectionToken | { useValue: unknown }>([['REQUEST', REQUEST], ['Reflector', Reflector]])
  if (candidates.size === 0) return aliases
  let core: Record<string, unknown>
  try {
    core = await import('@nestjs/core' as string)
  } catch {
    // Not installed: such a token is a class of the user's, resolved (or reported) as any other.
    return aliases
  }
  const reflector = core.Reflector as Type
  const adapterHost = core.HttpAdapterHost as Type
  if (candidates.has(reflector)) aliases.set(reflector, Reflector)
  if (candidates.has(adapterHost)) aliases.set(adapterHost, { useValue: new FastifyAdapterHost(app) })
  return aliases
}
