import Fastify, { type FastifyInstance } from 'fastify'
import type { TestContext } from 'node:test'
import { decoratorPlugin } from '../../plugin/index.js'
import type { DecoratorPluginOptions } from '../../types/index.js'

/** A ready app with the plugin registered; closed when the test ends. */
export async function build (t: TestContext, module: Function, options: Partial<DecoratorPluginOptions> = {}, before?: (app: FastifyInstance) => unknown): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  if (before) await before(app)
  await app.register(decoratorPlugin, { ...options, module } as DecoratorPluginOptions)
  await app.ready()
  return app
}
