import type { ForwardReference } from '../../types/index.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'

/**
 * A reference read only when the application is registered, once every file has loaded: for
 * modules that import each other, and for providers that inject each other.
 */
export function forwardRef<T = any> (fn: () => T): ForwardReference<T> {
  if (typeof fn !== 'function') {
    throw new ERR_INVALID_DECLARATION(`forwardRef() takes a function that returns the class, e.g. forwardRef(() => CatsModule), given ${describe(fn)}.`)
  }
  return { forwardRef: fn }
}

/** NestJS's shape too, so its forwardRef() objects are understood. */
export function isForwardRef (value: unknown): value is ForwardReference {
  return typeof value === 'object' && value !== null && typeof (value as ForwardReference).forwardRef === 'function'
}

// What each forwardRef() gave, so every reader of the graph (the scanner, the NestJS reader) gets
// the same object from a function that makes one (forwardRef(() => Module.forRoot())).
const targets = new WeakMap<ForwardReference, unknown>()

/** The forward reference's target; undefined while the function gives nothing. */
export function forwardRefTarget (ref: ForwardReference): unknown {
  if (targets.has(ref)) return targets.get(ref)
  const target = ref.forwardRef()
  if (target !== undefined) targets.set(ref, target)
  return target
}
