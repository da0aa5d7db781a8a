import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify'
import { CONTROLLERS, TOKEN, forbidden, itemSchema, rxItem, searchQuerySchema, type AppName, type Item, type Search } from '../scenarios.js'

// The benchmark apps written with plain Fastify: the limit the other targets are measured against.

// The guard: a route preValidation hook, as the plugin places guards.
function guard (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers.authorization === TOKEN) return done()
  reply.code(403).send(forbidden)
}

// The interceptor: wraps what the handler returned before it is serialized.
function wrap (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, value: unknown) => void): void {
  done(null, { data: payload })
}

// The async interceptor's work: awaiting the result, then wrapping it.
async function wrapAwaited (value: unknown): Promise<unknown> {
  return { data: await value }
}

function createItem (request: FastifyRequest, reply: FastifyReply): void {
  const body = request.body as Item
  reply.code(201).send({ id: 1, name: body.name, qty: body.qty })
}

class RequestContext {
  readonly id: string | undefined
  #count = 0
  constructor (request: FastifyRequest) { this.id = request.headers['x-request-id'] as string | undefined }
  touch (): number { return ++this.#count }
}

// A resource's four routes, for the startup scenario. Inside a plugin with a prefix the path is
// '': Fastify then registers `/cN` alone, as the other targets do, where '/' would add `/cN/` too.
function resource (app: FastifyInstance, c: number, path: string): void {
  app.get(path, (request, reply) => { reply.send({ c, items: [] }) })
  app.get(`${path}/:id`, (request, reply) => { reply.send({ c, id: (request.params as { id: string }).id }) })
  app.post(path, (request, reply) => { reply.code(201).send({ c, body: request.body }) })
  app.delete(`${path}/:id`, (request, reply) => { reply.send({ c, deleted: (request.params as { id: string }).id }) })
}

/** The startup app with one encapsulated plugin per resource, as the plugin makes a context per controller. */
export type RawAppName = AppName | 'startup-contexts'

async function routes (app: FastifyInstance, name: RawAppName): Promise<void> {
  switch (name) {
    case 'hello':
      app.get('/hello', (request, reply) => { reply.send({ hello: 'world' }) })
      return
    case 'params':
      app.get('/users/:id', (request, reply) => {
        const id = (request.params as { id: string }).id
        if (!/^-?\d+$/.test(id)) {
          reply.code(400).send({ message: 'Validation failed (numeric string is expected)', error: 'Bad Request', statusCode: 400 })
          return
        }
        reply.send({ id: parseInt(id, 10), fields: (request.query as { fields?: string }).fields, tenant: request.headers['x-tenant'] })
      })
      return
    // pipeline-dto's counterpart too: the hand-written JSON schema doing the compiled DTO's validation.
    case 'pipeline':
    case 'pipeline-dto':
      app.post('/items', { schema: { body: itemSchema }, preValidation: guard, preSerialization: wrap }, createItem)
      return
    case 'pipeline-cv': {
      // Loaded here only, so no other scenario (startup above all) pays for class-validator.
      const { validateItem } = await import('./raw-cv.js')
      app.post('/items', { preValidation: guard, preHandler: validateItem, preSerialization: wrap }, createItem)
      return
    }
    case 'query-dto':
      // Fastify's ajv coerces limit to a number with the hand-written querystring schema.
      app.get('/search', { schema: { querystring: searchQuerySchema } }, (request, reply) => {
        const query = request.query as Search
        reply.send({ limit: query.limit, order: query.order, q: query.q })
      })
      return
    case 'rxjs-interceptor':
      // The same work without rxjs: the handler's result wrapped by a preSerialization hook.
      app.get('/rx/:id', { preSerialization: wrap }, (request, reply) => { reply.send(rxItem((request.params as { id: string }).id)) })
      return
    case 'async-interceptor':
      // The same asynchronous work: an async function awaits the handler's result and wraps it.
      app.get('/async/:id', (request) => wrapAwaited(rxItem((request.params as { id: string }).id)))
      return
    case 'request-scope':
      // One object per request built in the handler: what a request-scoped provider stands for.
      app.get('/scoped', (request, reply) => {
        const context = new RequestContext(request)
        reply.send({ requestId: context.id, count: context.touch() })
      })
      return
    case 'sse':
    case 'sse-100':
      // rxjs too, for these scenarios only.
      app.get('/events', (await import('./raw-sse.js')).streamEvents)
      return
    case 'startup':
      for (let c = 0; c < CONTROLLERS; c++) resource(app, c, `/c${c}`)
      return
    case 'startup-contexts':
      for (let c = 0; c < CONTROLLERS; c++) app.register(async (child) => resource(child, c, ''), { prefix: `/c${c}` })
  }
}

/** The raw Fastify app for one scenario, ready, not listening. */
export async function buildApp (name: RawAppName): Promise<FastifyInstance> {
  const app = Fastify()
  await routes(app, name)
  await app.ready()
  return app
}
