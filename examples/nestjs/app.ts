import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { NotesModule } from './notes.module.js'

/**
 * A plain Fastify app that runs a NestJS module, unchanged, beside its own routes
 * (`@nestjs/common`, `@nestjs/core`, `rxjs` and `class-validator` installed).
 */
export async function buildApp (fastify: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(fastify)
  app.get('/health', async () => ({ ok: true }))
  await app.register(decoratorPlugin, { module: NotesModule, prefix: '/api' })
  return app
}
