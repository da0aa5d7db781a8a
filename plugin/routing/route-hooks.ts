import type { onRequestHookHandler, preValidationHookHandler } from 'fastify'

/**
 * One route's onRequest and preValidation hooks: its guards' hook, planned with the route, then
 * what is known only once the application is built: the middleware its modules' configure()
 * applies, and the Logger's request context. Fastify composes a route's hooks from these arrays
 * of its options when the app becomes ready, which is after the plugin has filled them; a route
 * that gets none has no hook at all.
 */
export interface LateRouteHooks {
  onRequest: onRequestHookHandler[]
  preValidation: preValidationHookHandler[]
}

/** A route's hooks, starting with its guards' preValidation hook if it has guards. */
export function lateRouteHooks (guards?: preValidationHookHandler): LateRouteHooks {
  return { onRequest: [], preValidation: guards === undefined ? [] : [guards] }
}
