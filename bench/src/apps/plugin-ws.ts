import Fastify, { type FastifyInstance } from 'fastify'
import { MessageBody, Module, SubscribeMessage, WebSocketGateway, decoratorPlugin } from 'fastify-decorator-plugin'
import { WS_ECHO_EVENT } from '../scenarios.js'

// The ws-echo scenario as a gateway on the app's own HTTP server: the handler's return value is
// the answer. Decorated by call: the tsx test lane runs this file too.

export class EchoGateway {
  echo (data: unknown): unknown { return data }
}
MessageBody()(EchoGateway.prototype, 'echo', 0)
SubscribeMessage(WS_ECHO_EVENT)(EchoGateway.prototype, 'echo', Object.getOwnPropertyDescriptor(EchoGateway.prototype, 'echo')!)
WebSocketGateway()(EchoGateway)

export class WsModule {}
Module({ providers: [EchoGateway] })(WsModule)

export async function buildWsApp (): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: WsModule })
  await app.ready()
  return app
}
