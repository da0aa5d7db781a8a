import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify'
import { plainToInstance } from 'class-transformer'
import { validate, type ValidationError } from 'class-validator'
import { CONTROLLERS, TOKEN, forbidden, itemSchema, type AppName } from '../scenarios.js'
import { CreateItemDto } from './dto.js'

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

function createItem (request: FastifyRequest, reply: FastifyReply): void {
  const body = request.body as CreateItemDto
  reply.code(201).send({ id: 1, name: body.name, qty: body.qty })
}

function messages (errors: ValidationError[]): string[] {
  return errors.flatMap((error) => Object.values(error.constraints ?? {}))
}

// class-validator on the parsed body, as a ValidationPipe does: plainToInstance, then validate.
async function validateItem (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const errors = await validate(plainToInstance(CreateItemDto, request.body as object), { forbidUnknownValues: false })
  if (errors.length > 0) return reply.code(400).send({ message: messages(errors), error: 'Bad Request', statusCode: 400 })
}

class RequestContext {
  readonly id: string | undefined
  #count = 0
  constructor (request: FastifyRequest) { this.id = request.headers['x-request-id'] as string | undefined }
  touch (): number { return ++this.#count }
}

function routes (app: FastifyInstance, name: AppName): void {
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
    case 'pipeline':
      app.post('/items', { schema: { body: itemSchema }, preValidation: guard, preSerialization: wrap }, createItem)
      return
    case 'pipeline-cv':
      app.post('/items', { preValidation: guard, preHandler: validateItem, preSerialization: wrap }, createItem)
      return
    case 'request-scope':
      // One object per request built in the handler: what a request-scoped provider stands for.
      app.get('/scoped', (request, reply) => {
        const context = new RequestContext(request)
        reply.send({ requestId: context.id, count: context.touch() })
      })
      return
    case 'startup':
      for (let c = 0; c < CONTROLLERS; c++) {
        app.get(`/c${c}`, (request, reply) => { reply.send({ c, items: [] }) })
        app.get(`/c${c}/:id`, (request, reply) => { reply.send({ c, id: (request.params as { id: string }).id }) })
        app.post(`/c${c}`, (request, reply) => { reply.code(201).send({ c, body: request.body }) })
        app.delete(`/c${c}/:id`, (request, reply) => { reply.send({ c, deleted: (request.params as { id: string }).id }) })
      }
  }
}

/** The raw Fastify app for one scenario, ready, not listening. */
export async function buildApp (name: AppName): Promise<FastifyInstance> {
  const app = Fastify()
  routes(app, name)
  await app.ready()
  return app
}
