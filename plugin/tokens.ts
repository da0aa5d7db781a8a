// Registered symbols: the same tokens in both builds of the package (see symbols.ts).
/** Injects the current Fastify request; makes its consumer request-scoped. */
export const REQUEST: unique symbol = Symbol.for('fastify-decorator-plugin.REQUEST')
/** Injects the encapsulated Fastify instance of the consumer's module or controller. */
export const FASTIFY: unique symbol = Symbol.for('fastify-decorator-plugin.FASTIFY')
/** A version that matches requests naming no version, or a version nobody claims. */
export const VERSION_NEUTRAL: unique symbol = Symbol.for('fastify-decorator-plugin.VERSION_NEUTRAL')
