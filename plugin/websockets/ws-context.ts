import type { ExecutionContext, HttpArgumentsHost, RpcArgumentsHost, Type, WsArgumentsHost } from '../../types/index.js'

/**
 * The context of a gateway handler's guards, interceptors, filters and custom parameters. Its
 * arguments are NestJS's: the client, the data, what the adapter passed besides (socket.io's ack,
 * the ws event name), the event last.
 */
export class WsExecutionContext implements ExecutionContext, WsArgumentsHost {
  readonly #args: unknown[]
  readonly #cls: Type
  readonly #handler: (...args: any[]) => any

  constructor (args: unknown[], cls: Type, handler: (...args: any[]) => any) {
    this.#args = args
    this.#cls = cls
    this.#handler = handler
  }

  getClass<T = any> (): Type<T> { return this.#cls }
  getHandler (): (...args: any[]) => any { return this.#handler }
  getArgs<T extends any[] = any[]> (): T { return this.#args as T }
  getArgByIndex<T = any> (index: number): T { return this.#args[index] as T }
  getType<T extends string = 'ws'> (): T { return 'ws' as T }
  switchToWs (): WsArgumentsHost { return this }
  // Read by position, as NestJS does: code shared with HTTP routes gets the client and the data.
  switchToHttp (): HttpArgumentsHost {
    const args = this.#args
    return { getRequest: <T>() => args[0] as T, getResponse: <T>() => args[1] as T, getNext: <T>() => args[2] as T }
  }

  switchToRpc (): RpcArgumentsHost {
    const args = this.#args
    return { getData: <T>() => args[0] as T, getContext: <T>() => args[1] as T }
  }

  getClient<T = any> (): T { return this.#args[0] as T }
  getData<T = any> (): T { return this.#args[1] as T }
  getPattern (): string { return this.#args[this.#args.length - 1] as string }
}
