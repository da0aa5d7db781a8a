import { executionAsyncResource } from 'node:async_hooks'

// Node's process.nextTick() makes each tick with an object literal whose first keys are computed
// (its async id symbols). V8's feedback for defining such a key remembers one map and, once it
// meets another, stays megamorphic for good: from then on every nextTick() of the process defines
// its keys through the runtime, a few per request. That happens when a collection finds no tick
// object alive and takes their maps, which apps that await or nest plugins met during startup or
// under load (this one nests a context per controller). One tick object kept alive keeps those
// maps. bench/README.md has the measurements.
let kept: object | undefined

/** Keeps the resource of one nextTick() callback, Node's tick object, for the life of the process. */
export function keepTickMaps (): void {
  if (kept === undefined) process.nextTick(keepTick)
}

function keepTick (): void {
  kept ??= executionAsyncResource()
}

/** What is kept: for tests. */
export function keptTick (): object | undefined {
  return kept
}
