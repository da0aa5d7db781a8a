import type { ForwardReference, InjectableOptions, InjectionToken, ScopeName } from '../../types/index.js'
import { kInjectable, kInjectProperties, kInjectTokens, kOptional } from '../util/symbols.js'
import { defineMetadata, getMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { legacyDecorator } from '../util/legacy-decorator.js'
import { noEntries } from '../util/empty.js'

/** Provider lifetimes: one per application, one per request, one per injection point. */
export const Scope = {
  DEFAULT: 'DEFAULT',
  REQUEST: 'REQUEST',
  TRANSIENT: 'TRANSIENT'
} as const satisfies Record<ScopeName, ScopeName>
export type Scope = ScopeName

/** NestJS's `Scope` enum values, as NestJS packages' providers carry them. */
export const nestScopes: Readonly<Record<number, ScopeName | undefined>> = Object.freeze({ 0: 'DEFAULT', 1: 'TRANSIENT', 2: 'REQUEST' })

/** Whether a value is one of the scopes. */
export function isScope (value: unknown): value is ScopeName {
  return value === 'DEFAULT' || value === 'REQUEST' || value === 'TRANSIENT'
}

/** Marks a class as a provider; `scope` sets its lifetime. */
export function Injectable (options: InjectableOptions = {}): ClassDecorator {
  return legacyDecorator('@Injectable()', (target: Function) => { defineMetadata(kInjectable, options, target) })
}

export function injectableOptions (cls: Function): InjectableOptions | undefined {
  return getOwnMetadata(kInjectable, cls)
}

type InjectTarget = { kind: 'parameter', owner: Function, index: number } | { kind: 'property', owner: Function, key: string | symbol }

/** Where a parameter or property decorator was applied; fails on anything but a constructor parameter or an instance property. */
function injectTarget (name: string, target: object, key: string | symbol | undefined, index: number | undefined): InjectTarget {
  if (key === undefined && typeof target === 'function' && typeof index === 'number') return { kind: 'parameter', owner: target, index }
  const cls = typeof target === 'function' ? target : target.constructor
  const where = typeof index === 'number' ? `${cls.name}.${String(key)}() is a method` : `${cls.name}.${String(key)} is static`
  if (typeof index === 'number' || typeof target === 'function' || key === undefined) {
    throw new ERR_INVALID_DECLARATION(`${name} applies to constructor parameters and instance properties; ${where}.`)
  }
  return { kind: 'property', owner: target.constructor, key }
}

/** An injected property: its token (undefined: the property's type), and whether it may be missing. */
export interface PropertyInjection {
  key: string | symbol
  token?: InjectionToken | ForwardReference
  inject: boolean
  optional: boolean
}

// The class's own copy of the inherited entries, so a subclass never writes into its base class's.
function ownProperties (owner: Function): Map<string | symbol, PropertyInjection> {
  let own: Map<string | symbol, PropertyInjection> | undefined = getOwnMetadata(kInjectProperties, owner)
  if (!own) defineMetadata(kInjectProperties, own = new Map(getMetadata(kInjectProperties, owner) ?? []), owner)
  return own
}

function property (owner: Function, key: string | symbol): PropertyInjection {
  const properties = ownProperties(owner)
  const entry: PropertyInjection = { ...(properties.get(key) ?? { key, inject: false, optional: false }) }
  properties.set(key, entry)
  return entry
}

/**
 * Names what a constructor parameter or a property injects: a token, or `forwardRef(() => Token)`
 * for a class defined later. With no argument, the parameter's or property's type (which needs
 * emitted type metadata) is the token.
 */
export function Inject (...args: [token?: InjectionToken | ForwardReference]): PropertyDecorator & ParameterDecorator {
  const token = args[0]
  return legacyDecorator('@Inject()', (target: object, key: string | symbol | undefined, index?: number) => {
    const at = injectTarget('@Inject()', target, key, index)
    if (args.length > 0 && (token === undefined || token === null)) {
      const what = at.kind === 'parameter' ? `parameter ${at.index}` : `the property ${JSON.stringify(String(at.key))}`
      throw new ERR_INVALID_DECLARATION(`@Inject() on ${what} of ${at.owner.name} was given ${String(token)}: the token is not defined yet (a circular import between files?). Use forwardRef(() => Token).`)
    }
    if (at.kind === 'property') {
      const entry = property(at.owner, at.key)
      entry.inject = true
      entry.token = token
      return
    }
    if (token === undefined) return // by the parameter's type, as without @Inject()
    // The constructor's own map, grown in place: a copy per decorator would make a class's
    // parameters quadratic to declare.
    let tokens: Map<number, InjectionToken | ForwardReference> | undefined = getOwnMetadata(kInjectTokens, at.owner)
    if (tokens === undefined) defineMetadata(kInjectTokens, tokens = new Map(), at.owner)
    tokens.set(at.index, token)
  }) as PropertyDecorator & ParameterDecorator
}

/** A missing dependency injects `undefined` (a property keeps its initial value) instead of failing registration. */
export function Optional (): PropertyDecorator & ParameterDecorator {
  return legacyDecorator('@Optional()', (target: object, key: string | symbol | undefined, index?: number) => {
    const at = injectTarget('@Optional()', target, key, index)
    if (at.kind === 'property') {
      property(at.owner, at.key).optional = true
      return
    }
    let optional: Set<number> | undefined = getOwnMetadata(kOptional, at.owner)
    if (optional === undefined) defineMetadata(kOptional, optional = new Set(), at.owner)
    optional.add(at.index)
  }) as PropertyDecorator & ParameterDecorator
}

/**
 * The class whose constructor `cls` runs: itself, or for a subclass with no constructor of its
 * own, the nearest base class that has one (its parameters, types and tokens apply).
 */
export function constructorOwner (cls: Function): Function {
  let owner = cls
  while (owner.length === 0) {
    // A class with no base class runs its own constructor: its source need not be read.
    const base = Object.getPrototypeOf(owner)
    if (typeof base !== 'function' || base === Function.prototype) break
    if (/\bconstructor\s*\(/.test(Function.prototype.toString.call(owner))) break
    owner = base
  }
  return owner
}

// Run for every class bound at startup, most of which declare nothing: the readers that take the
// class whose constructor runs (constructorOwner()) make no empty collections for those.

/** The tokens @Inject() names for the parameters of `owner`'s own constructor, by index, if any. */
export function ownInjectTokens (owner: Function): Map<number, InjectionToken | ForwardReference> | undefined {
  return getOwnMetadata(kInjectTokens, owner)
}

/** The tokens @Inject() names for the parameters of the constructor `cls` runs, by index. */
export function injectTokens (cls: Function): Map<number, InjectionToken | ForwardReference> {
  return ownInjectTokens(constructorOwner(cls)) ?? new Map()
}

/** The indexes of the parameters of `owner`'s own constructor marked @Optional(), if any. */
export function optionalParams (owner: Function): Set<number> | undefined {
  return getOwnMetadata(kOptional, owner)
}

/** The properties `cls` injects (its base classes' included), in declaration order. */
export function injectedProperties (cls: Function): PropertyInjection[] {
  const properties: Map<string | symbol, PropertyInjection> | undefined = getMetadata(kInjectProperties, cls)
  return properties ? [...properties.values()].filter((entry) => entry.inject) : noEntries
}
