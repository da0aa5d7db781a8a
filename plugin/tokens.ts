/** Injects the current Fastify request; makes its consumer request-scoped. */
export const REQUEST: unique symbol = Symbol('REQUEST')
/** Injects the encapsulated Fastify instance of the consumer's module or controller. */
export const FASTIFY: unique symbol = Symbol('FASTIFY')
/** A version that matches requests naming no version, or a version nobody claims. */
export const VERSION_NEUTRAL: unique symbol = Symbol('VERSION_NEUTRAL')
