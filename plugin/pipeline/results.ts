import type { ObservableLike } from '../../types/index.js'
import { andThen, isThenable } from '../util/thenable.js'

// What a guard, an interceptor or a handler gives: a value, a promise, or an Observable whose
// last value counts, as NestJS reads them.

export function isObservable (value: unknown): value is ObservableLike {
  return typeof value === 'object' && value !== null && typeof (value as ObservableLike).subscribe === 'function' && !isThenable(value)
}

/** The last value of an Observable-like (rxjs or any object with `subscribe`). */
export function lastValue (observable: ObservableLike): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let last: unknown
    observable.subscribe({ next: (value) => { last = value }, error: reject, complete: () => resolve(last) })
  })
}

export const unwrap = (value: unknown): unknown => isObservable(value) ? lastValue(value) : value

// What `await` then an Observable's last value give: a promise only when something was pending.
export function settle (value: unknown): unknown {
  return andThen(value, unwrap)
}
