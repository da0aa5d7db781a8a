import type { FastifyInstance } from 'fastify'
import type { TokenAliases } from '../di/container.js'
import type { InjectionToken, Type } from '../../types/index.js'
import { Reflector } from '../decorators/reflector.js'
import { INQUIRER, REQUEST } from '../util/tokens.js'
import { ModuleRef } from '../di/module-ref.js'
import { ApplicationConfig } from '../di/application-config.js'
import { ERR_NEST_UNSUPPORTED } from '../util/errors.js'
import { FastifyAdapterHost } from './http-adapter.js'

// The classes of @nestjs/core that NestJS code injects by type; told apart by identity once
// @nestjs/core is loaded, and loaded only when a token of one of these names is in the application.
const supported = ['Reflector', 'HttpAdapterHost', 'ModuleRef', 'ApplicationConfig']
// Those the plugin has no stand-in for: injecting one fails with a message that says so.
const unsupported = ['LazyModuleLoader', 'DiscoveryService', 'MetadataScanner', 'ModulesContainer']
const coreClasses = new Set([...supported, ...unsupported])

/** Whether `token` may be one of @nestjs/core's classes. */
export function mayBeCoreToken (token: unknown): token is Function {
  return typeof token === 'function' && coreClasses.has(token.name) && token !== Reflector && token !== ModuleRef && token !== ApplicationConfig
}

/**
 * NestJS's tokens as the plugin's: its strings, and @nestjs/core's classes among `candidates`
 * (each with the name of a class that injects it).
 */
export async function nestTokens (candidates: Map<Function, string>, app: FastifyInstance): Promise<TokenAliases> {
  const aliases: TokenAliases = new Map<InjectionToken, InjectionToken | { useValue: unknown }>([['REQUEST', REQUEST], ['INQUIRER', INQUIRER], ['Reflector', Reflector]])
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
  const moduleRef = core.ModuleRef as Type
  if (candidates.has(moduleRef)) aliases.set(moduleRef, ModuleRef)
  const applicationConfig = core.ApplicationConfig as Type
  if (candidates.has(applicationConfig)) aliases.set(applicationConfig, ApplicationConfig)
  if (candidates.has(adapterHost)) aliases.set(adapterHost, { useValue: new FastifyAdapterHost(app) })
  for (const name of unsupported) {
    const consumer = candidates.get(core[name] as Function)
    if (consumer !== undefined) {
      throw new ERR_NEST_UNSUPPORTED(`${consumer} injects ${name} of @nestjs/core, which the plugin does not provide. Inject the providers it would look up directly; @nestjs/core's Reflector, ModuleRef, ApplicationConfig and HttpAdapterHost are provided.`)
    }
  }
  return aliases
}
