import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Observable } from 'rxjs'
import {
  ConnectedSocket, Controller, Get, Inject, Injectable, MessageBody, Module, SubscribeMessage, WebSocketGateway, WebSocketServer, WsException,
  type OnGatewayConnection, type OnGatewayDisconnect, type OnGatewayInit, type WsResponse
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { listening, wsClient } from '../helpers/ws-client.js'
import { runWatched } from '../helpers/lazy-loading.js'

@Injectable()
class Greeter {
  greet (name: string) { return `hello ${name}` }
}

const events: string[] = []

@WebSocketGateway()
class EventsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  @WebSocketServer() server: any
  constructor (@Inject(Greeter) readonly greeter: Greeter) {}

  afterInit (server: unknown) { events.push(`init ${server === this.server}`) }
  handleConnection (client: unknown, request: { url: string }) { events.push(`connect ${request.url}`) }
  handleDisconnect () { events.push('disconnect') }

  @SubscribeMessage('echo')
  echo (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('greet')
  greet (@MessageBody('name') name: string): WsResponse<string> { return { event: 'greeting', data: this.greeter.greet(name) } }

  @SubscribeMessage('raw')
  raw (client: any, data: unknown, event: string) { return { client: typeof client.send, data, event } }

  @SubscribeMessage('later')
  async later (@MessageBody() data: number) { await new Promise((resolve) => setTimeout(resolve, 5)); return data * 2 }

  @SubscribeMessage('count')
  count (@MessageBody() to: number) {
    return new Observable<WsResponse<number>>((subscriber) => {
      for (let i = 1; i <= to; i++) subscriber.next({ event: 'tick', data: i })
      subscriber.complete()
    })
  }

  @SubscribeMessage('self')
  self (@ConnectedSocket() client: any, @MessageBody() data: string) { client.send(JSON.stringify({ event: 'direct', data })) }

  @SubscribeMessage('refuse')
  refuse () { throw new WsException('not allowed') }

  @SubscribeMessage('refuseObject')
  refuseObject () { throw new WsException({ code: 42 }) }

  @SubscribeMessage('crash')
  crash () { throw new Error('secret detail') }

  @SubscribeMessage('broadcast')
  broadcast (@MessageBody() data: string) {
    for (const client of this.server.clients) client.send(JSON.stringify({ event: 'all', data }))
  }
}

@Controller('http')
class HttpController {
  @Get() get () { return { http: true } }
}

@Module({ providers: [Greeter, EventsGateway], controllers: [HttpController] })
class AppModule {}

test('a gateway on the app\'s own server: bodies, acks, WsResponse, Observables, the client, the server, hooks', async (t) => {
  events.length = 0
  const app = await build(t, AppModule)
  const port = await listening(app)
  const client = await wsClient(t, port, '/?x=1')

  client.send('echo', { a: 1 })
  assert.deepEqual(await client.next(), { a: 1 })
  client.send('greet', { name: 'cat' })
  assert.deepEqual(await client.next(), { event: 'greeting', data: 'hello cat' })
  client.send('raw', 7)
  assert.deepEqual(await client.next(), { client: 'function', data: 7, event: 'raw' })
  client.send('later', 21)
  assert.equal(await client.next(), 42)
  client.send('count', 3)
  assert.deepEqual([await client.next(), await client.next(), await client.next()], [1, 2, 3].map((data) => ({ event: 'tick', data })))
  client.send('self', 'me')
  assert.deepEqual(await client.next(), { event: 'direct', data: 'me' })

  const other = await wsClient(t, port)
  client.send('broadcast', 'hi')
  assert.deepEqual(await client.next(), { event: 'all', data: 'hi' })
  assert.deepEqual(await other.next(), { event: 'all', data: 'hi' })

  // The HTTP routes are untouched.
  assert.deepEqual((await fetch(`http://127.0.0.1:${port}/http`)).status, 200)
  await other.close()
  await app.close()
  assert.deepEqual(events, ['init true', 'connect /?x=1', 'connect /', 'disconnect', 'disconnect'])
})

test('WsException and other errors answer an exception event, NestJS\'s shape', async (t) => {
  const app = await build(t, AppModule)
  const client = await wsClient(t, await listening(app))
  client.send('refuse', 1)
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'not allowed', cause: { pattern: 'refuse', data: 1 } } })
  client.send('refuseObject')
  assert.deepEqual(await client.next(), { event: 'exception', data: { code: 42 } })
  client.send('crash', 'x')
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'Internal server error', cause: { pattern: 'crash', data: 'x' } } })
  // Still serving.
  client.send('echo', 'ok')
  assert.equal(await client.next(), 'ok')
})

test('an app without gateways loads nothing of them; one with a gateway loads the runtime and ws', async () => {
  const withoutNest = { HIDE_NEST: '1' }
  assert.deepEqual(await runWatched('without-interceptors', withoutNest), ['{"plain":true}', 'imported: none'])
  // The client of the fixture imports ws too; rxjs is what the runtime hands NestJS's adapters.
  assert.deepEqual(await runWatched('with-gateway', withoutNest), ['"echoed"', 'imported: rxjs, the gateway runtime, ws'])
  assert.deepEqual(await runWatched('with-gateway', { ...withoutNest, HIDE_RXJS: '1' }), ['"echoed"', 'imported: the gateway runtime, ws'])
})
