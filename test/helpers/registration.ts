import Fastify, { type FastifyInstance } from 'fastify'
import assert from 'node:assert/strict'
import { decoratorPlugin } from '../../plugin/index.js'
import type { DecoratorPluginOptions } from '../../types/index.js'

/** The error a registration fails with, and the app it failed in (already closed). */
export async function registrationError (options: Partial<DecoratorPluginOptions> | unknown, app: FastifyInstance = Fastify()): Promise<Error & { code?: string }> {
  try {
    await app.register(decoratorPlugin, options as DecoratorPluginOptions)
    await app.ready()
  } catch (error) {
    await app.close().catch(() => {})
    return error as Error
  }
  await app.close()
  assert.fail('registration was expected to fail')
}
