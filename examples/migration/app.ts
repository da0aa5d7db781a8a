// An existing Fastify app (a db client, an auth hook, plain routes) that adds one decorated module.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { Db } from './db.js'
import { OrdersModule } from './orders.module.js'

export interface AppOptions {
  db?: Db
  fastify?: FastifyServerOptions
}

export async function buildApp (options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(options.fastify)
  app.decorate('db', options.db ?? new Db({ users: [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }] }))

  // The app's own hook: it guards the plain routes and the decorated ones alike.
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers['x-api-key'] !== 'secret') {
      await reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Missing or wrong x-api-key' })
    }
  })

  // Existing plain routes keep working as they are.
  app.get('/users', async () => await app.db.select('users'))
  app.get<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    const [user] = await app.db.select('users', { id: Number(request.params.id) })
    if (!user) return await reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'User not found' })
    return user
  })

  // The new part: one decorated module beside them.
  await app.register(decoratorPlugin, { module: OrdersModule })
  return app
}
