import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyServerOptions } from 'fastify'
import { Eta } from 'eta'
import { decoratorPlugin } from '../../plugin/index.js'
import { AppModule } from './app.module.js'

// Templates are not compiled: a build (dist/, .build/) reads them from the source tree.
const beside = fileURLToPath(new URL('./views', import.meta.url))
export const viewsDir = existsSync(beside) ? beside : fileURLToPath(new URL('../../../examples/versioned/views', import.meta.url))

/** One resource as v1 and v2 (`/api/v1/cats`, `/api/v2/cats`) and an HTML page (`/api/cats/page`). */
export async function buildApp (options: FastifyServerOptions = {}) {
  const app = Fastify(options)
  app.get('/health', async () => ({ ok: true }))
  await app.register(decoratorPlugin, {
    module: AppModule,
    prefix: '/api',
    versioning: { type: 'uri' },
    view: { engine: { eta: new Eta() }, root: viewsDir }
  })
  return app
}
