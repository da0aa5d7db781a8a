import { executionAsyncResource } from 'node:async_hooks'

// Node's process.nextTick() makes each tick with an object literal whose first keys are computed
// (its async id symbols). V8's feedback for defining such a key remembers one map and, once it
// meets another, stays megamorphic for good: from then on every nextTick() of the process defines
// its keys through the runtime, a few per request. Apps that await or nest plugins (this one nests
// a context per controller) met that during startup or under load, unless one tick object stayed
// alive, which keeps its maps. bench/README.md has the measurements.
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
