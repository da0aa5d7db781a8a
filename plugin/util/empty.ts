/**
 * What code run for every class, handler or route at startup hands out where nothing is
 * declared: one shared empty list instead of a new one each time, frozen so that no holder can
 * add to it.
 */
export const noEntries = Object.freeze([]) as unknown as never[]

/** No guards, pipes, interceptors or filters at one level: the empty list of each, shared. */
export const noEnhancerLists = Object.freeze({ guards: noEntries, pipes: noEntries, interceptors: noEntries, filters: noEntries })
