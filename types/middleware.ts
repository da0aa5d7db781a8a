// Middleware as NestJS declares it: a module's configure(consumer) applies NestMiddleware classes
// or functions to routes. They run on Fastify's onRequest hook of the matching routes.
import type { RouteInfo, Type } from './index.js'

/** A middleware class (built through DI in the module that applies it). */
export interface NestMiddleware<TRequest = any, TResponse = any> {
  /** Gets Node's request and response (as NestJS on Fastify gives them) and `next`. */
  use(req: TRequest, res: TResponse, next: (error?: any) => void): any
}

/** A module class with middleware: `configure()` is called on its instance once it is built. */
export interface NestModule {
  configure(consumer: MiddlewareConsumer): any
}

/** A value of the `RequestMethod` enum: NestJS's numbers, from GET (0) to UNLOCK (15). */
export type { RouteInfo } from './index.js'

export interface MiddlewareConsumer {
  /** The middleware, in order: NestMiddleware classes or `(req, res, next) => void` functions. */
  apply(...middleware: Array<Type | Function | Array<Type | Function>>): MiddlewareConfigProxy
}

export interface MiddlewareConfigProxy {
  /** Routes the middleware skips: path patterns or `{ path, method }`. */
  exclude(...routes: Array<string | RouteInfo>): MiddlewareConfigProxy
  /** Routes the middleware runs on: path patterns (`'cats'`, `'cats/*'`, `'*'`), controller classes or `{ path, method }`. */
  forRoutes(...routes: Array<string | Type | RouteInfo>): MiddlewareConsumer
}
