import type { onRequestHookHandler, preValidationHookHandler } from 'fastify'

/**
 * Hooks of one route that are known only once the application is built: the middleware its
 * modules' configure() applies, and the Logger's request context. Fastify composes a route's
 * hooks from these arrays of its options when the app becomes ready, which is after the plugin
 * has filled them; a route that gets none has no hook at all.
 */
export interface LateRouteHooks {
  onRequest: onRequestHookHandler[]
  preValidation: preValidationHookHandler[]
}

export function lateRouteHooks (): LateRouteHooks {
  return { onRequest: [], preValidation: [] }
}
