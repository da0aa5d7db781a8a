import Fastify, { type FastifyServerOptions } from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { AppModule } from './app.module.js'

/** File uploads (`POST /api/files`, `POST /api/files/images`) and downloads (`GET /api/files/:id`). */
export async function buildApp (options: FastifyServerOptions = {}) {
  const app = Fastify(options)
  await app.register(decoratorPlugin, { module: AppModule, prefix: '/api' })
  return app
}
