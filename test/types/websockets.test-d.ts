// Type tests for WebSocket gateways: the decorators, the hook interfaces, WsResponse, and the
// adapter seam that NestJS's WsAdapter and IoAdapter satisfy.
import Fastify from 'fastify'
import { WsAdapter } from '@nestjs/platform-ws'
import { IoAdapter } from '@nestjs/platform-socket.io'
import {
  Ack, ConnectedSocket, decoratorPlugin, FastifyWsAdapter, MessageBody, Module, ParseIntPipe, SubscribeMessage, WebSocketGateway, WebSocketServer, WsException,
  type OnGatewayConnection, type OnGatewayDisconnect, type OnGatewayInit, type WebSocketAdapter, type WsResponse
} from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'

@WebSocketGateway(0, { path: '/events', maxPayload: 64 * 1024 })
class EventsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  @WebSocketServer() server: unknown
  afterInit (server: unknown) { void server }
  handleConnection (client: unknown, request: unknown) { void client; void request }
  handleDisconnect (client: unknown) { void client }

  @SubscribeMessage('events')
  events (@MessageBody('n', ParseIntPipe) n: number, @ConnectedSocket() client: unknown, @Ack() ack: unknown): WsResponse<number> {
    void client; void ack
    return { event: 'events', data: n }
  }
}

@WebSocketGateway({ namespace: 'chat', cors: { origin: '*' } })
class ChatGateway {}

// @ts-expect-error: an event name, not a number
SubscribeMessage(1)
// @ts-expect-error: a WsResponse names its event
const noEvent: WsResponse = { data: 1 }
void noEvent

// @ts-expect-error: afterInit takes the server
class Wrong implements OnGatewayInit { afterInit = 1 }
void Wrong

const error: string | object = new WsException({ code: 1 }).getError()
void error

@Module({ providers: [EventsGateway, ChatGateway] })
class AppModule {}

const app = Fastify()
const own: WebSocketAdapter = new FastifyWsAdapter(app.server)
await app.register(decoratorPlugin, { module: AppModule, websocketAdapter: own })
await app.register(decoratorPlugin, { module: AppModule, websocketAdapter: new WsAdapter(app.server) })
await app.register(decoratorPlugin, { module: AppModule, websocketAdapter: new IoAdapter(app.server) })
// @ts-expect-error: an adapter object, not a name
await app.register(decoratorPlugin, { module: AppModule, websocketAdapter: 'ws' })

const testing = (await Test.createTestingModule({ providers: [EventsGateway] }).compile()).createNestApplication()
testing.useWebSocketAdapter(new WsAdapter(testing)).useWebSocketAdapter(new IoAdapter(testing))
