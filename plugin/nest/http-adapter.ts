import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * What @nestjs/core's HttpAdapterHost gives NestJS code (CacheInterceptor, health checks):
 * an adapter over the Fastify app the plugin is registered in.
 */
export class FastifyAdapterHost {
  readonly httpAdapter: FastifyHttpAdapter
  constructor (app: FastifyInstance) { this.httpAdapter = new FastifyHttpAdapter(app) }
}

/** The part of NestJS's Fastify adapter that libraries call, answered by Fastify itself. */
export class FastifyHttpAdapter {
  readonly #app: FastifyInstance
  constructor (app: FastifyInstance) { this.#app = app }

  getInstance<T = FastifyInstance> (): T { return this.#app as T }
  getHttpServer (): FastifyInstance['server'] { return this.#app.server }
  getType (): string { return 'fastify' }
  getRequestMethod (request: FastifyRequest): string { return request.method }
  getRequestUrl (request: FastifyRequest): string { return request.url }
  getRequestHostname (request: FastifyRequest): string { return request.hostname }
  getHeader (reply: FastifyReply, name: string): unknown { return reply.getHeader(name) }
  setHeader (reply: FastifyReply, name: string, value: string): FastifyReply { return reply.header(name, value) }
  isHeadersSent (reply: FastifyReply): boolean { return reply.sent }
  status (reply: FastifyReply, statusCode: number): FastifyReply { return reply.code(statusCode) }
  reply (reply: FastifyReply, body: unknown, statusCode?: number): FastifyReply {
    if (statusCode !== undefined) reply.code(statusCode)
    return reply.send(body)
  }

  redirect (reply: FastifyReply, statusCode: number, url: string): FastifyReply { return reply.redirect(url, statusCode) }
}
