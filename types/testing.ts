// Public types of fastify-decorator-plugin/testing.
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { DecoratorPluginOptions, InjectionToken } from './index.js'

export interface TestAppOptions extends Omit<DecoratorPluginOptions, 'module'> {
  /** Options for the Fastify instance (logger, bodyLimit, ...). */
  fastify?: FastifyServerOptions
  /** Runs before the plugin is registered: add decorations, plugins or plain routes the app needs. */
  setup?: (app: FastifyInstance) => unknown
}

/** Anything with node:test's `after`, such as the test context `t`. */
export interface TestContextLike { after (fn: () => unknown): void }

/** `useFactory()` of an override, as NestJS takes it: a factory and the tokens of its arguments. */
export interface OverrideByFactoryOptions {
  factory: (...args: any[]) => unknown
  inject?: InjectionToken[]
}
