import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { DecoratorPluginOptions, Type } from '../types/index.js'
import { decoratorPlugin } from './plugin.js'

export interface TestAppOptions extends Omit<DecoratorPluginOptions, 'module'> {
  /** Options for the Fastify instance (logger, bodyLimit, ...). */
  fastify?: FastifyServerOptions
  /** Runs before the plugin is registered: add decorations, plugins or plain routes the app needs. */
  setup?: (app: FastifyInstance) => unknown
}

/** Anything with node:test's `after`, such as the test context `t`. */
export interface TestContextLike { after (fn: () => unknown): void }

/**
 * A ready Fastify app running `module`, for `inject()` tests. With node:test's context `t`
 * the app is closed when the test ends.
 */
export async function createTestApp (module: Type, options: TestAppOptions = {}, t?: TestContextLike): Promise<FastifyInstance> {
  const { fastify, setup, ...pluginOptions } = options
  const app = Fastify(fastify)
  if (t) t.after(() => app.close())
  if (setup) await setup(app)
  await app.register(decoratorPlugin, { ...pluginOptions, module })
  await app.ready()
  return app
}
