import type { ObservableLike } from '../../types/index.js'
import { isThenable } from '../util/thenable.js'

// `next.handle()` as NestJS code uses it: `await next.handle()` and `next.handle().pipe(...)`.
// With rxjs installed, it gives an rxjs Observable that is also a promise: subscribing runs the
// rest of the chain (again on each subscription, as `retry()` expects); awaiting runs it once.
// On an @Sse() route it is an Observable only: a stream has no last value to await, and a
// promise returned from an async `intercept` would take in a thenable one.
// rxjs is loaded when the application has a route with interceptors, and only then.

type Run = () => unknown
type ToPromise = (run: Run) => Promise<unknown>
interface Subscriber { next: (value: unknown) => void, error: (error: unknown) => void, complete: () => void }
type HandledClass = new (run: Run, toPromise: ToPromise) => PromiseLike<unknown>

// undefined: not looked for yet; null: rxjs is not installed.
let Handled: HandledClass | null | undefined
let RxObservable: (new (subscribe: (subscriber: Subscriber) => unknown) => ObservableLike) | undefined

function subscribable (value: unknown): value is ObservableLike {
  return typeof value === 'object' && value !== null && typeof (value as ObservableLike).subscribe === 'function'
}

// Hands what the rest of the chain gave to a subscriber: every value of an Observable, the
// value a promise settles to, or the value itself.
function forward (value: unknown, subscriber: Subscriber): unknown {
  if (subscribable(value)) {
    const subscription = value.subscribe({ next: (item) => subscriber.next(item), error: (error) => subscriber.error(error), complete: () => subscriber.complete() })
    return typeof (subscription as { unsubscribe?: unknown })?.unsubscribe === 'function' ? subscription : undefined
  }
  if (isThenable(value)) {
    value.then((settled) => forward(settled, subscriber), (error) => subscriber.error(error))
    return undefined
  }
  subscriber.next(value)
  subscriber.complete()
  return undefined
}

function handledClass (Observable: new () => object): HandledClass {
  class HandledCall extends (Observable as new () => { pipe: Function }) {
    readonly #run: Run
    readonly #toPromise: ToPromise
    #promise: Promise<unknown> | undefined

    constructor (run: Run, toPromise: ToPromise) {
      super()
      this.#run = run
      this.#toPromise = toPromise
    }

    // Called by rxjs for each subscription.
    _subscribe (subscriber: Subscriber): unknown {
      return forward(this.#run(), subscriber)
    }

    then<A = unknown, B = never> (onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
      this.#promise ??= this.#toPromise(this.#run)
      return this.#promise.then(onFulfilled, onRejected)
    }

    catch<B = never> (onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<unknown> {
      return this.then(undefined, onRejected)
    }

    finally (onFinally?: (() => void) | null): Promise<unknown> {
      return this.then().finally(onFinally)
    }
  }
  return HandledCall
}

/** Loads rxjs once, for an application with interceptors; without it `handle()` gives a promise. */
export async function loadRxjs (): Promise<void> {
  if (Handled !== undefined) return
  try {
    const { Observable } = await import('rxjs' as string)
    RxObservable = Observable
    Handled = handledClass(Observable)
  } catch {
    Handled = null
  }
}

/**
 * What `next.handle()` gives for the rest of the chain (`run`): with rxjs loaded an Observable that is
 * also a promise, else the promise `toPromise(run)` (which runs it at once).
 */
export function handled (run: Run, toPromise: ToPromise): PromiseLike<unknown> {
  return Handled ? new Handled(run, toPromise) : toPromise(run)
}

/** What `next.handle()` gives on an @Sse() route: an Observable of the rest of the chain (rxjs's when installed). */
export function streamed (run: Run): ObservableLike {
  const subscribe = (subscriber: Subscriber): unknown => forward(run(), subscriber)
  return RxObservable !== undefined ? new RxObservable(subscribe) : { subscribe } as ObservableLike
}

/** Whether `value` is what `handle()` gave with rxjs loaded, an Observable that is also a promise. */
export function isHandledCall (value: unknown): value is ObservableLike & PromiseLike<unknown> {
  return Handled != null && value instanceof Handled
}
