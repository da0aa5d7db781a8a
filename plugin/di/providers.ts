import type { InjectionToken, Provider, Type } from '../../types/index.js'
import { isModule } from '../decorators/module.js'
import { injectableOptions, isScope, nestScopes } from '../decorators/injectable.js'
import { ERR_INVALID_PROVIDER } from '../util/errors.js'
import { describe, tokenName } from '../util/describe.js'

// A provider as a module or an override lists it, checked and made one shape: its token, how it
// is made and its scope.

export type Token = InjectionToken

export interface ProviderDefinition {
  token: Token
  useClass?: Type
  useValue?: unknown
  useFactory?: (...args: any[]) => unknown
  inject?: Array<Token | { token: Token, optional?: boolean }>
  useExisting?: Token
  scope: 'DEFAULT' | 'REQUEST' | 'TRANSIENT'
}

const providerKeys = ['useClass', 'useValue', 'useFactory', 'useExisting'] as const

export function normalizeProvider (provider: Provider, where: string): ProviderDefinition {
  if (typeof provider === 'function') {
    const cls: Function = provider
    if (isModule(cls as unknown)) {
      throw new ERR_INVALID_PROVIDER(`${where} is the module ${cls.name}; modules belong in imports, not providers.`)
    }
    if (cls.prototype === undefined) {
      throw new ERR_INVALID_PROVIDER(`${where} is a function that is not a class (${cls.name || 'anonymous'}); use { provide: token, useFactory: fn } for a factory.`)
    }
    return { token: provider, useClass: provider, scope: checkScope(injectableOptions(cls)?.scope ?? 'DEFAULT', where, cls) }
  }
  if (provider === null || typeof provider !== 'object' || !('provide' in provider)) {
    throw new ERR_INVALID_PROVIDER(`${where} is ${describe(provider)}; a provider is a class or { provide, useClass | useValue | useFactory | useExisting }.`)
  }
  const token = (provider as { provide: Token }).provide
  if (!isToken(token)) {
    throw new ERR_INVALID_PROVIDER(`${where} has provide: ${describe(token)}; a token is a class, a string or a symbol.`)
  }
  const used = providerKeys.filter((key) => key in provider)
  if (used.length !== 1) {
    throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}) must have exactly one of useClass, useValue, useFactory, useExisting; it has ${used.length === 0 ? 'none' : used.join(', ')}.`)
  }
  const p = provider as Record<string, any>
  if ('useClass' in p && typeof p.useClass !== 'function') throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): useClass must be a class, given ${describe(p.useClass)}.`)
  if ('useFactory' in p && typeof p.useFactory !== 'function') throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): useFactory must be a function, given ${describe(p.useFactory)}.`)
  if ('inject' in p && p.inject !== undefined && !Array.isArray(p.inject)) throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): inject must be an array of tokens.`)
  for (const [index, entry] of (p.inject ?? []).entries()) {
    const dependency = entry !== null && typeof entry === 'object' && 'token' in entry ? entry.token : entry
    if (!isToken(dependency)) {
      throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): inject[${index}] is ${describe(entry)}; an entry is a token (class, string or symbol) or { token, optional }.`)
    }
  }
  const scope = checkScope(p.scope ?? (p.useClass ? injectableOptions(p.useClass)?.scope : undefined) ?? 'DEFAULT', where)
  return { token, useClass: p.useClass, useValue: p.useValue, useFactory: p.useFactory, inject: p.inject, useExisting: p.useExisting, scope }
}

// `where` is completed with the class's name only for the message: this runs for every class bound.
function checkScope (given: unknown, where: string, cls?: Function): ProviderDefinition['scope'] {
  // NestJS's enum values too: providers of NestJS packages' dynamic modules carry them.
  const scope = typeof given === 'number' ? nestScopes[given] : given
  if (!isScope(scope)) {
    throw new ERR_INVALID_PROVIDER(`${cls === undefined ? where : `${where} (${cls.name})`}: scope must be DEFAULT, REQUEST or TRANSIENT, given ${describe(given)}. Use Scope.DEFAULT, Scope.REQUEST or Scope.TRANSIENT.`)
  }
  return scope
}

export function isToken (value: unknown): value is Token {
  return typeof value === 'function' || typeof value === 'string' || typeof value === 'symbol'
}
