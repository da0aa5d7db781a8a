import { kWrittenKeys } from './symbols.js'

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
