// The request pipeline stays synchronous until something is pending: a step that has its value
// now costs no promise and no trip through the microtask queue.

export function isThenable (value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}

/**
 * `next(value, a, b)`: now when `value` is there, else once it settles. `a` and `b` ride along
 * so that callers need no closure per request.
 */
export function andThen<T, R, A = undefined, B = undefined> (value: T | PromiseLike<T>, next: (value: T, a: A, b: B) => R, a?: A, b?: B): R | Promise<Awaited<R>> {
  // Promise.then flattens what `next` gives, which TypeScript cannot see through a generic R.
  if (isThenable(value)) return Promise.resolve(value).then((settled) => next(settled, a as A, b as B)) as Promise<Awaited<R>>
  return next(value, a as A, b as B)
}

/** `values` as they are when none is pending, else a promise of them all settled. */
export function whenAll<T> (values: Array<T | PromiseLike<T>>): T[] | Promise<T[]> {
  for (const value of values) if (isThenable(value)) return Promise.all(values)
  return values as T[]
}

/**
 * Runs `step` on `value` for each index from `from` up to `count`, each step taking the previous
 * one's result: synchronously while the results are there, waiting where one is pending.
 */
export function steps<T, A, B> (value: T | PromiseLike<T>, count: number, step: (value: T, index: number, a: A, b: B) => T | PromiseLike<T>, a: A, b: B, from = 0): T | PromiseLike<T> {
  for (let i = from; i < count; i++) {
    if (isThenable(value)) return Promise.resolve(value).then((settled) => steps(settled, count, step, a, b, i))
    value = step(value, i, a, b)
  }
  return value
}

/** A promise of what `run` gives (called with `arg`), rejected (not thrown) when it throws. */
export function promised<T, A = undefined> (run: (arg: A) => T | PromiseLike<T>, arg?: A): Promise<T> {
  try {
    return Promise.resolve(run(arg as A))
  } catch (error) {
    return Promise.reject(error)
  }
}
