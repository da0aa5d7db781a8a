import { kWrittenKeys } from './symbols.js'
import requirePeer from './require-peer.cjs'

// Loaded before any decorator runs (the package's own classes are decorated as they load), so
// users need no side-effect import of their own; required, not imported, for the reason
// peers.ts gives.
requirePeer('reflect-metadata')

// The plugin's metadata (under the keys of symbols.ts) goes through here to reflect-metadata.
// Most applications write few of those keys, and for a class without an entry reflect-metadata
// looks through its registry and maps at each step up the prototype chain: a key nobody wrote is
// known absent from every class without that. The written keys are shared through a registered
// symbol by every copy of the package in the process, as the keys themselves are.
const global = globalThis as { [kWrittenKeys]?: Set<symbol> }
const written = global[kWrittenKeys] ??= new Set()

/** Writes `value` under `key` on `target` (on its member `property`, if given). */
export function defineMetadata (key: symbol, value: unknown, target: object, property?: string | symbol): void {
  written.add(key)
  Reflect.defineMetadata(key, value, target, property as string)
}

/** What `target` itself has under `key`, nothing inherited. */
export function getOwnMetadata<T> (key: symbol, target: object, property?: string | symbol): T | undefined {
  return written.has(key) ? Reflect.getOwnMetadata(key, target, property as string) : undefined
}

/** What `target`, or the nearest object up its prototype chain, has under `key`. */
export function getMetadata<T> (key: symbol, target: object, property?: string | symbol): T | undefined {
  return written.has(key) ? Reflect.getMetadata(key, target, property as string) : undefined
}

/** Whether `target` itself has an entry under `key`. */
export function hasOwnMetadata (key: symbol, target: object): boolean {
  return written.has(key) && Reflect.hasOwnMetadata(key, target)
}

// What @Controller(), the route decorators and the parameter decorators declare, kept as
// non-enumerable properties under the plugin's symbols on the class or prototype they describe.
// As reflect-metadata entries they cost a registry lookup and two maps per class and per method,
// for data the plugin alone reads, once per class at startup. Inherited as metadata is: through
// the prototype chain (a subclass's constructor has its base class as prototype).

type Declarations<T> = Record<symbol, T | undefined>
type Members<T> = Map<string | symbol, T>

/** What `target` itself declares under `key`, nothing inherited. */
export function ownDeclaration<T> (target: object, key: symbol): T | undefined {
  return Object.hasOwn(target, key) ? (target as Declarations<T>)[key] : undefined
}

/** What `target` declares under `key`, or the nearest object up its prototype chain. */
export function declaration<T> (target: object, key: symbol): T | undefined {
  return (target as Declarations<T>)[key]
}

/** Sets what `target` itself declares under `key`. */
export function declare (target: object, key: symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, configurable: true })
}

/** What `target` itself declares under `key` for its member `member` (a method's parameters). */
export function ownMemberDeclaration<T> (target: object, key: symbol, member: string | symbol): T | undefined {
  return ownDeclaration<Members<T>>(target, key)?.get(member)
}

/** What `target`, or the nearest object up its prototype chain, declares for `member`. */
export function memberDeclaration<T> (target: object, key: symbol, member: string | symbol): T | undefined {
  for (let current: object | null = target; current !== null; current = Object.getPrototypeOf(current)) {
    const found = ownMemberDeclaration<T>(current, key, member)
    if (found !== undefined) return found
  }
  return undefined
}

/** Sets what `target` itself declares under `key` for its member `member`. */
export function declareMember (target: object, key: symbol, member: string | symbol, value: unknown): void {
  let members = ownDeclaration<Members<unknown>>(target, key)
  if (members === undefined) declare(target, key, members = new Map())
  members.set(member, value)
}
