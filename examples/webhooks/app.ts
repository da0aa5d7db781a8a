import Fastify, { type FastifyServerOptions } from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { AppModule } from './app.module.js'
import { WEBHOOK_SECRET } from './signature.service.js'

/** A payments webhook (`POST /api/webhooks/payments`) that checks an HMAC-SHA256 signature over the raw body. */
export async function buildApp (options: { secret?: string, fastify?: FastifyServerOptions } = {}) {
  const app = Fastify(options.fastify)
  // Plain routes keep Fastify's own JSON parser.
  app.post('/echo', async (request) => request.body)
  await app.register(decoratorPlugin, {
    module: AppModule,
    prefix: '/api',
    overrides: options.secret === undefined ? [] : [{ provide: WEBHOOK_SECRET, useValue: options.secret }]
  })
  return app
}
