import type { ObservableLike } from '../../types/index.js'
import { isThenable } from '../util/thenable.js'
import { isHandledCall } from './call-handler.js'

// What a guard, an interceptor or a handler gives: a value, a promise, or an Observable whose
// last value counts, as NestJS reads them.

/**
 * An Observable-like that is no promise, or what `next.handle()` gave (an Observable first): returned
 * as it is, it is subscribed to as NestJS does, so a chain that has its value now answers now.
 */
export function isObservable (value: unknown): value is ObservableLike {
  return typeof value === 'object' && value !== null && typeof (value as ObservableLike).subscribe === 'function' && (!isThenable(value) || isHandledCall(value))
}

/** A promise to wait for: a thenable other than what `next.handle()` gave, which is subscribed to. */
export function isPending (value: unknown): value is PromiseLike<unknown> {
  return isThenable(value) && !isObservable(value)
}

// Where lastValue's subscription stands.
const PENDING = 0
const DONE = 1
const FAILED = 2

/**
 * The last value of an Observable-like (rxjs or any object with `subscribe`): now when it
 * completes while subscribing, as `of(x)` and `next.handle().pipe(map(...))` over a value do,
 * else a promise of it. A failure always comes as a rejected promise.
 */
export function lastValue (observable: ObservableLike): unknown {
  let state = PENDING
  let last: unknown
  let failure: unknown
  let resolveLast: ((value: unknown) => void) | undefined
  let rejectLast: ((error: unknown) => void) | undefined
  observable.subscribe({
    next: (value) => { last = value },
    error: (error) => { if (rejectLast !== undefined) rejectLast(error); else { failure = error; state = FAILED } },
    complete: () => { if (resolveLast !== undefined) resolveLast(last); else state = DONE }
  })
  if (state === DONE) return last
  if (state === FAILED) return Promise.reject(failure)
  return new Promise((resolve, reject) => { resolveLast = resolve; rejectLast = reject })
}

export const unwrap = (value: unknown): unknown => isObservable(value) ? lastValue(value) : value

// What `await` then an Observable's last value give: a promise only when something was pending.
export function settle (value: unknown): unknown {
  return isPending(value) ? Promise.resolve(value).then(unwrap) : unwrap(value)
}
