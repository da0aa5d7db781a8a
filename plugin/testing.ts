import Fastify, { type FastifyInstance } from 'fastify'
import type { Type } from '../types/index.js'
import type { TestAppOptions, TestContextLike } from '../types/testing.js'
import { decoratorPlugin } from './plugin.js'
import { ERR_INVALID_OPTIONS } from './util/errors.js'
import { describe } from './util/describe.js'

export { Test, TestingModule, TestingModuleBuilder } from './testing/testing-module.js'
export type { MockFactory, ModuleDefinition, OverrideBy, OverrideModule } from './testing/testing-module.js'
export type { TestingApplication } from './testing/application.js'
export type { OverrideByFactoryOptions, TestAppOptions, TestContextLike } from '../types/testing.js'

const usage = 'createTestApp(module, options?, t?)'

/**
 * A ready Fastify app running `module`, for `inject()` tests. With node:test's context `t`
 * the app is closed when the test ends; without it the caller closes it.
 */
export async function createTestApp (module: Type, options: TestAppOptions = {}, t?: TestContextLike): Promise<FastifyInstance> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ERR_INVALID_OPTIONS(`${usage}: options must be an object, given ${describe(options)}.`)
  }
  if (t !== undefined && typeof t?.after !== 'function') {
    throw new ERR_INVALID_OPTIONS(`${usage}: t must be a node:test context (with after()), given ${describe(t)}.`)
  }
  const { fastify, setup, ...pluginOptions } = options
  if (setup !== undefined && typeof setup !== 'function') {
    throw new ERR_INVALID_OPTIONS(`${usage}: options.setup must be a function, given ${describe(setup)}.`)
  }
  const app = Fastify(fastify)
  if (t) t.after(() => app.close())
  try {
    if (setup) await setup(app)
    await app.register(decoratorPlugin, { ...pluginOptions, module })
    await app.ready()
  } catch (error) {
    // Nobody else holds the app: release what setup opened before reporting the error.
    if (!t) await app.close().catch(() => {})
    throw error
  }
  return app
}
