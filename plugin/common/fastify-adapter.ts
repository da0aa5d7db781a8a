import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginOptions, type FastifyRegisterOptions, type FastifyServerOptions } from 'fastify'
import type { FastifyPlugin } from '../../types/application.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe } from '../util/describe.js'

function isFastifyInstance (value: unknown): value is FastifyInstance {
  return typeof value === 'object' && value !== null && typeof (value as FastifyInstance).register === 'function' && 'server' in value
}

/**
 * The Fastify instance an application runs on, under NestJS's name: `new FastifyAdapter()`,
 * `new FastifyAdapter({ logger: true })` (Fastify's server options) or
 * `new FastifyAdapter(app)` for an app that already exists, with its own routes and plugins.
 */
export class FastifyAdapter<TInstance extends FastifyInstance = FastifyInstance> {
  readonly #instance: TInstance

  constructor (instanceOrOptions?: TInstance | FastifyServerOptions) {
    if (instanceOrOptions !== undefined && (instanceOrOptions === null || typeof instanceOrOptions !== 'object')) {
      throw new ERR_INVALID_OPTIONS(`new FastifyAdapter() takes a Fastify instance or Fastify's server options, given ${describe(instanceOrOptions)}.`)
    }
    this.#instance = isFastifyInstance(instanceOrOptions) ? instanceOrOptions : Fastify(instanceOrOptions as FastifyServerOptions) as unknown as TInstance
  }

  /** The Fastify instance. */
  getInstance<T = TInstance> (): T { return this.#instance as unknown as T }

  /** Node's HTTP server of the instance (what supertest takes). */
  getHttpServer<T = TInstance['server']> (): T { return this.#instance.server as unknown as T }

  getType (): string { return 'fastify' }

  /** Registers a Fastify plugin on the instance. */
  register<O extends FastifyPluginOptions = any> (plugin: FastifyPlugin<O>, options?: FastifyRegisterOptions<O>): ReturnType<FastifyInstance['register']> {
    return this.#instance.register(plugin as FastifyPluginAsync<O>, options as FastifyRegisterOptions<O>)
  }

  /** Fastify's `inject()`: a request without a network. */
  inject: FastifyInstance['inject'] = (...args: any[]) => (this.#instance.inject as (...args: any[]) => any)(...args)

  close (): Promise<undefined> { return this.#instance.close() }
}
