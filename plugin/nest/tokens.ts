import type { FastifyInstance } from 'fastify'
import type { TokenAliases } from '../di/container.js'
import type { InjectionToken, Type } from '../../types/index.js'
import { Reflector } from '../decorators/reflector.js'
import { INQUIRER, REQUEST } from '../util/tokens.js'
import { ModuleRef } from '../di/module-ref.js'
import { LazyModuleLoader } from '../di/lazy-module-loader.js'
import { ApplicationConfig } from '../di/application-config.js'
import { DiscoveryService, type DiscoverableKeys } from '../di/discovery.js'
import { MetadataScanner } from '../di/metadata-scanner.js'
import { ModulesContainer } from '../di/modules-container.js'
import { kBuiltinToken } from '../util/symbols.js'
import { FastifyAdapterHost } from './http-adapter.js'
import { importOptionalPeer } from '../util/peers.js'
import importPeer from '../util/import-peer.cjs'

// The classes of @nestjs/core that NestJS code injects by type; told apart by identity once
// @nestjs/core is loaded, and loaded only when a token of one of these names is in the application.
// Those that stand for a builtin of the plugin's, by name.
const builtins = new Map<string, InjectionToken>([['Reflector', Reflector], ['ModuleRef', ModuleRef], ['LazyModuleLoader', LazyModuleLoader], ['DiscoveryService', DiscoveryService], ['MetadataScanner', MetadataScanner], ['ModulesContainer', ModulesContainer], ['ApplicationConfig', ApplicationConfig]])
const coreClasses = new Set([...builtins.keys(), 'HttpAdapterHost'])

/** Whether `token` may be one of @nestjs/core's classes (the plugin's own builtins, of either build, are not). */
export function mayBeCoreToken (token: unknown): token is Function {
  return typeof token === 'function' && coreClasses.has(token.name) && !Object.hasOwn(token, kBuiltinToken)
}

/** What nestTokens() gives the container: the aliases, and the classes @nestjs/core's discoverable decorators mark. */
export interface NestTokens {
  aliases: TokenAliases
  discoverableKeys?: DiscoverableKeys
}

/**
 * NestJS's tokens as the plugin's: its strings, and @nestjs/core's classes among `candidates`
 * (each with the name of a class that injects it).
 */
export async function nestTokens (candidates: Map<Function, string>, app: FastifyInstance): Promise<NestTokens> {
  const aliases: TokenAliases = new Map<InjectionToken, InjectionToken | { useValue: unknown }>([['REQUEST', REQUEST], ['INQUIRER', INQUIRER], ['Reflector', Reflector]])
  if (candidates.size === 0) return { aliases }
  const core = await loadCore()
  // Not installed: such a token is a class of the user's, resolved (or reported) as any other.
  if (core === undefined) return { aliases }
  for (const [name, builtin] of builtins) {
    const token = core[name] as Type
    if (candidates.has(token)) aliases.set(token, builtin)
  }
  const adapterHost = core.HttpAdapterHost as Type
  if (candidates.has(adapterHost)) aliases.set(adapterHost, { useValue: new FastifyAdapterHost(app) })
  const discovering = candidates.has(core.DiscoveryService as Function) || candidates.has(core.ModulesContainer as Function)
  return { aliases, discoverableKeys: discovering ? await coreDiscoverableKeys() : undefined }
}

let core: Promise<Record<string, unknown> | undefined> | undefined

/** @nestjs/core, once, or undefined when it is not installed. */
export function loadCore (): Promise<Record<string, unknown> | undefined> {
  core ??= importOptionalPeer<Record<string, unknown>>('@nestjs/core')
  return core
}

// Which classes the decorators of @nestjs/core's DiscoveryService.createDecorator() mark: it
// keeps them in a collection of its own (a class and the keys of the decorators applied to it).
async function coreDiscoverableKeys (): Promise<DiscoverableKeys | undefined> {
  try {
    const { DiscoverableMetaHostCollection } = await importPeer('@nestjs/core/discovery/discoverable-meta-host-collection.js')
    const links = DiscoverableMetaHostCollection?.metaHostLinks as Map<Function, Set<string>> | undefined
    return links instanceof Map ? (cls, key) => links.get(cls)?.has(key) === true : undefined
  } catch {
    return undefined
  }
}
