import type { InjectableOptions, InjectionToken } from '../types/index.js'
import { kInjectable, kInjectTokens, kOptional } from './symbols.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { legacyDecorator } from './legacy-decorator.js'

/** Marks a class as a provider; `scope` sets its lifetime. */
export function Injectable (options: InjectableOptions = {}): ClassDecorator {
  return legacyDecorator('@Injectable()', (target: Function) => { Reflect.defineMetadata(kInjectable, options, target) })
}

export function injectableOptions (cls: Function): InjectableOptions | undefined {
  return Reflect.getOwnMetadata(kInjectable, cls)
}

/** Names the token of a constructor parameter; needed where the compiler emits no type metadata. */
export function Inject (token: InjectionToken): ParameterDecorator {
  return legacyDecorator('@Inject()', (target: object, key: string | symbol | undefined, index: number) => {
    if (token === undefined || token === null) {
      const cls = typeof target === 'function' ? target.name : target.constructor.name
      throw new ERR_INVALID_DECLARATION(`@Inject() on parameter ${index} of ${cls} was given ${String(token)}: the token is not defined yet (a circular import between files?).`)
    }
    const owner = constructorOf(target, key)
    const tokens: Map<number, InjectionToken> = new Map(Reflect.getOwnMetadata(kInjectTokens, owner) ?? [])
    tokens.set(index, token)
    Reflect.defineMetadata(kInjectTokens, tokens, owner)
  })
}

/** A missing dependency injects `undefined` instead of failing registration. */
export function Optional (): ParameterDecorator {
  return legacyDecorator('@Optional()', (target: object, key: string | symbol | undefined, index: number) => {
    const owner = constructorOf(target, key)
    const optional = new Set<number>(Reflect.getOwnMetadata(kOptional, owner) ?? [])
    optional.add(index)
    Reflect.defineMetadata(kOptional, optional, owner)
  })
}

function constructorOf (target: object, key: string | symbol | undefined): Function {
  if (key !== undefined || typeof target !== 'function') {
    throw new ERR_INVALID_DECLARATION('@Inject() and @Optional() apply to constructor parameters only.')
  }
  return target
}

/**
 * The class whose constructor `cls` runs: itself, or for a subclass with no constructor of its
 * own, the nearest base class that has one (its parameters, types and tokens apply).
 */
export function constructorOwner (cls: Function): Function {
  let owner = cls
  while (owner.length === 0 && !/\bconstructor\s*\(/.test(Function.prototype.toString.call(owner))) {
    const base = Object.getPrototypeOf(owner)
    if (typeof base !== 'function' || base === Function.prototype) break
    owner = base
  }
  return owner
}

export function injectTokens (cls: Function): Map<number, InjectionToken> {
  return Reflect.getOwnMetadata(kInjectTokens, constructorOwner(cls)) ?? new Map()
}

export function optionalParams (cls: Function): Set<number> {
  return Reflect.getOwnMetadata(kOptional, constructorOwner(cls)) ?? new Set()
}
