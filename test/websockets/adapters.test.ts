import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { WsAdapter } from '@nestjs/platform-ws'
import { IoAdapter } from '@nestjs/platform-socket.io'
import { io, type Socket as ClientSocket } from 'socket.io-client'
import {
  Ack, ConnectedSocket, MessageBody, Module, SubscribeMessage, WebSocketGateway, WebSocketServer, WsException, decoratorPlugin,
  type OnGatewayDisconnect
} from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'
import { listening, wsClient } from '../helpers/ws-client.js'

const disconnected: string[] = []

@WebSocketGateway({ path: '/events' })
class WsGateway {
  @SubscribeMessage('echo') echo (@MessageBody() data: unknown) { return { event: 'echo', data } }
  @SubscribeMessage('fail') fail () { throw new WsException('no') }
}

test('NestJS\'s WsAdapter, given the testing application, serves the gateways on its server', async (t) => {
  const app = (await Test.createTestingModule({ providers: [WsGateway] }).compile()).createNestApplication()
  t.after(() => app.close())
  app.useWebSocketAdapter(new WsAdapter(app))
  await app.listen(0, '127.0.0.1')
  const { port } = app.getHttpServer().address()
  const client = await wsClient(t, port, '/events')
  client.send('echo', 'hi')
  assert.deepEqual(await client.next(), { event: 'echo', data: 'hi' })
  client.send('fail', 1)
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'no', cause: { pattern: 'fail', data: 1 } } })
})

@WebSocketGateway({ namespace: 'chat', cors: { origin: '*' } })
class ChatGateway implements OnGatewayDisconnect {
  @WebSocketServer() server: any

  handleDisconnect (client: { id: string }) { disconnected.push(typeof client.id) }

  @SubscribeMessage('join')
  join (@ConnectedSocket() client: any, @MessageBody() room: string) {
    client.join(room)
    return `joined ${room}`
  }

  @SubscribeMessage('say')
  say (@MessageBody() body: { room: string, text: string }) {
    this.server.to(body.room).emit('said', body.text)
  }

  @SubscribeMessage('event')
  event (@MessageBody() data: number) { return { event: 'evented', data: data + 1 } }

  @SubscribeMessage('manual')
  manual (@MessageBody() data: string, @Ack() ack: (value: unknown) => void) { ack(`manual ${data}`); return 'not sent' }

  @SubscribeMessage('fail')
  fail () { throw new WsException('refused') }
}

@Module({ providers: [ChatGateway] })
class ChatModule {}

function connect (t: any, port: number, namespace: string): Promise<ClientSocket> {
  const socket = io(`http://127.0.0.1:${port}${namespace}`, { transports: ['websocket'], forceNew: true })
  t.after(() => socket.disconnect())
  return new Promise((resolve, reject) => { socket.once('connect', () => resolve(socket)); socket.once('connect_error', reject) })
}

test('NestJS\'s IoAdapter through the plugin option: namespaces, acks, events, rooms through @WebSocketServer(), exceptions, disconnects on close', async (t) => {
  disconnected.length = 0
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: ChatModule, websocketAdapter: new IoAdapter(app.server) })
  const port = await listening(app)
  const a = await connect(t, port, '/chat')
  const b = await connect(t, port, '/chat')
  assert.equal(await a.emitWithAck('join', 'room1'), 'joined room1')
  assert.equal(await b.emitWithAck('join', 'room1'), 'joined room1')
  const heard = new Promise((resolve) => b.once('said', resolve))
  a.emit('say', { room: 'room1', text: 'hello' })
  assert.equal(await heard, 'hello')
  const evented = new Promise((resolve) => a.once('evented', resolve))
  a.emit('event', 1)
  assert.equal(await evented, 2)
  assert.equal(await a.emitWithAck('manual', 'x'), 'manual x')
  const exception = new Promise((resolve) => a.once('exception', resolve))
  a.emit('fail', 'data')
  assert.deepEqual(await exception, { status: 'error', message: 'refused', cause: { pattern: 'fail', data: 'data' } })
  // The HTTP routes of the app still answer.
  assert.equal((await app.inject('/nothing')).statusCode, 404)
  await app.close()
  assert.deepEqual(disconnected, ['string', 'string'])
})
