import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ExecutionContext, HttpArgumentsHost, RpcArgumentsHost, Type, WsArgumentsHost } from '../../types/index.js'

/** The context guards, interceptors, filters and custom parameter decorators receive. */
export class HttpExecutionContext implements ExecutionContext, HttpArgumentsHost {
  readonly #request: FastifyRequest
  readonly #reply: FastifyReply
  readonly #cls: Type
  readonly #handler: (...args: any[]) => any

  constructor (request: FastifyRequest, reply: FastifyReply, cls: Type, handler: (...args: any[]) => any) {
    this.#request = request
    this.#reply = reply
    this.#cls = cls
    this.#handler = handler
  }

  getClass<T = any> (): Type<T> { return this.#cls }
  getHandler (): (...args: any[]) => any { return this.#handler }

  getArgs<T extends any[] = any[]> (): T { return [this.#request, this.#reply, undefined] as unknown as T }
  getArgByIndex<T = any> (index: number): T { return this.getArgs()[index] as T }
  getType<T extends string = 'http'> (): T { return 'http' as T }
  switchToHttp (): HttpArgumentsHost { return this }
  // NestJS reads the same arguments by position for its other contexts: code written for several
  // of them (a guard shared with a gateway) gets the request and the reply there.
  switchToRpc (): RpcArgumentsHost {
    const [data, context] = this.getArgs()
    return { getData: <T>() => data as T, getContext: <T>() => context as T }
  }

  switchToWs (): WsArgumentsHost {
    const [client, data, pattern] = this.getArgs()
    return { getClient: <T>() => client as T, getData: <T>() => data as T, getPattern: () => pattern as string }
  }

  getRequest<T = any> (): T { return this.#request as T }
  getResponse<T = any> (): T { return this.#reply as T }
  getNext<T = undefined> (): T { return undefined as T }
}
