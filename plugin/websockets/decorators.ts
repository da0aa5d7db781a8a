import type { GatewayMetadata } from '../../types/websockets.js'
import type { PipeEntry } from '../decorators/params.js'
import { isPipe } from '../decorators/params.js'
import { kGateway, kMessage, kWsParams, kWsServer } from '../util/symbols.js'
import { defineMetadata, getMetadata, getOwnMetadata } from '../util/metadata.js'
import { legacyDecorator, refuseTc39 } from '../util/legacy-decorator.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'

/** What `@WebSocketGateway()` records. */
export interface GatewayDefinition { port: number, options: GatewayMetadata }

/** A handler parameter: the message body (or one of its keys), the client, or socket.io's ack. */
export interface WsParamDefinition { index: number, kind: 'body' | 'socket' | 'ack' | 'custom', data?: unknown, pipes: PipeEntry[], factory?: (data: any, ctx: any) => unknown }

/** Marks a provider as a gateway: served on the app's own HTTP server (port 0, the default) or on a port of its own. */
export function WebSocketGateway (port?: number, options?: GatewayMetadata): ClassDecorator
export function WebSocketGateway (options?: GatewayMetadata): ClassDecorator
export function WebSocketGateway (portOrOptions?: number | GatewayMetadata, options?: GatewayMetadata): ClassDecorator {
  const hasPort = typeof portOrOptions === 'number'
  const port = hasPort ? portOrOptions : 0
  const given = (hasPort ? options : portOrOptions) ?? {}
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ERR_INVALID_DECLARATION(`@WebSocketGateway() takes a port from 0 to 65535 (0: the app's own server), given ${describe(port)}.`)
  }
  if (typeof given !== 'object' || given === null) {
    throw new ERR_INVALID_DECLARATION(`@WebSocketGateway() takes options such as { path: '/events' }, given ${describe(given)}.`)
  }
  return legacyDecorator('@WebSocketGateway()', (target: Function) => { defineMetadata(kGateway, { port, options: given }, target) })
}

/** Routes the messages of `event` to the method. */
export function SubscribeMessage (event: string): MethodDecorator {
  if (typeof event !== 'string' || event === '') throw new ERR_INVALID_DECLARATION(`@SubscribeMessage() takes an event name, given ${describe(event)}.`)
  return legacyDecorator('@SubscribeMessage()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    defineMetadata(kMessage, event, descriptor.value)
  })
}

/** Sets the server (or socket.io namespace) on the property once the gateway is served. */
export function WebSocketServer (): PropertyDecorator {
  return legacyDecorator('@WebSocketServer()', (target: object, key: string | symbol) => {
    const keys: Array<string | symbol> = getOwnMetadata(kWsServer, target) ?? [...(getMetadata<Array<string | symbol>>(kWsServer, target) ?? [])]
    keys.push(key)
    defineMetadata(kWsServer, keys, target)
  })
}

function wsParam (name: string, param: Omit<WsParamDefinition, 'index'>): ParameterDecorator {
  return (target: object, key: string | symbol | undefined, index: number) => {
    refuseTc39(name, target, key)
    if (key === undefined) throw new ERR_INVALID_DECLARATION(`${name} applies to a gateway's handler methods, not to the constructor of ${(target as Function).name}.`)
    const params: WsParamDefinition[] = getOwnMetadata(kWsParams, target, key) ?? []
    params.push({ ...param, index })
    defineMetadata(kWsParams, params, target, key)
  }
}

/** The message's data, or one of its keys; pipes run on it. */
export function MessageBody (keyOrPipe?: string | PipeEntry, ...pipes: PipeEntry[]): ParameterDecorator {
  let data: string | undefined
  if (typeof keyOrPipe === 'string' || keyOrPipe === undefined) data = keyOrPipe
  else if (isPipe(keyOrPipe)) pipes = [keyOrPipe, ...pipes]
  else throw new ERR_INVALID_DECLARATION(`@MessageBody() takes a property name and pipes, given ${describe(keyOrPipe)}.`)
  for (const pipe of pipes) if (!isPipe(pipe)) throw new ERR_INVALID_DECLARATION(`@MessageBody(): every pipe needs a transform() method, given ${describe(pipe)}.`)
  return wsParam('@MessageBody()', { kind: 'body', data, pipes })
}

/** The client that sent the message: a `ws` WebSocket, or a socket.io Socket. */
export function ConnectedSocket (): ParameterDecorator {
  return wsParam('@ConnectedSocket()', { kind: 'socket', pipes: [] })
}

/** socket.io's acknowledgement callback: the handler answers through it, and its return value is not sent. */
export function Ack (): ParameterDecorator {
  return wsParam('@Ack()', { kind: 'ack', pipes: [] })
}

export function wsParamsOf (prototype: object, key: string | symbol): WsParamDefinition[] | undefined {
  return getMetadata(kWsParams, prototype, key)
}

export function wsServerKeys (prototype: object): Array<string | symbol> {
  return getMetadata(kWsServer, prototype) ?? []
}

export function messageOf (method: Function): string | undefined {
  return getOwnMetadata(kMessage, method)
}

// NestJS's keys (@nestjs/websockets), read where its decorators were used.
const nestGateway = 'websockets:is_gateway'
const nestPort = 'port'
const nestOptions = 'websockets:gateway_options'

/** The gateway a class declares, with the plugin's decorator or NestJS's. */
export function gatewayOf (cls: Function): GatewayDefinition | undefined {
  const own = getMetadata<GatewayDefinition>(kGateway, cls)
  if (own !== undefined) return own
  if (Reflect.getMetadata?.(nestGateway, cls) !== true) return undefined
  return { port: Reflect.getMetadata(nestPort, cls) ?? 0, options: Reflect.getMetadata(nestOptions, cls) ?? {} }
}

/** Whether a module provides a gateway: one look per provider class, so an app without any loads nothing of the gateways. */
export function hasGateways (modules: Array<{ providers: Map<unknown, { useClass?: Function }> }>): boolean {
  for (let i = 0; i < modules.length; i++) {
    for (const definition of modules[i].providers.values()) {
      if (definition.useClass !== undefined && gatewayOf(definition.useClass) !== undefined) return true
    }
  }
  return false
}
