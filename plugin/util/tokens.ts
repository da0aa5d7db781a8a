// Registered symbols: the same tokens in both builds of the package (see symbols.ts).
/** Injects the current Fastify request; makes its consumer request-scoped. */
export const REQUEST: unique symbol = Symbol.for('fastify-decorator-plugin.REQUEST')
/** Injects the encapsulated Fastify instance of the consumer's module or controller. */
export const FASTIFY: unique symbol = Symbol.for('fastify-decorator-plugin.FASTIFY')
/** A version that matches requests naming no version, or a version nobody claims. */
export const VERSION_NEUTRAL: unique symbol = Symbol.for('fastify-decorator-plugin.VERSION_NEUTRAL')
/** Injects, into a transient provider, an object of the class it is built for (`inquirer.constructor` is that class). */
export const INQUIRER: unique symbol = Symbol.for('fastify-decorator-plugin.INQUIRER')
// NestJS's strings: a provider under one of them adds a global enhancer, built through DI in its module.
/** `{ provide: APP_GUARD, useClass: AuthGuard }`: a guard for every route, built in the declaring module. */
export const APP_GUARD = 'APP_GUARD'
/** `{ provide: APP_PIPE, useClass: ValidationPipe }`: a pipe for every route, built in the declaring module. */
export const APP_PIPE = 'APP_PIPE'
/** `{ provide: APP_INTERCEPTOR, useClass: LoggingInterceptor }`: an interceptor for every route. */
export const APP_INTERCEPTOR = 'APP_INTERCEPTOR'
/** `{ provide: APP_FILTER, useClass: HttpErrorFilter }`: an exception filter for every route. */
export const APP_FILTER = 'APP_FILTER'
