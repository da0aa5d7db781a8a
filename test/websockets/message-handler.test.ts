import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Observable, of, throwError, concat } from 'rxjs'
import Fastify from 'fastify'
import { IoAdapter } from '@nestjs/platform-socket.io'
import { io, type Socket as ClientSocket } from 'socket.io-client'
import {
  Catch, MessageBody, Module, SubscribeMessage, UseFilters, WebSocketGateway, WsException, createParamDecorator, decoratorPlugin,
  type ArgumentsHost, type ExceptionFilter, type ExecutionContext, type WsResponse
} from '../../plugin/index.js'
import { messageCallback, type MessagePlan } from '../../plugin/websockets/message-handler.js'
import { build } from '../helpers/app.js'
import { listening, wsClient } from '../helpers/ws-client.js'

// Handlers without guards, pipes or interceptors take the direct path: their value is given as it
// is, a promise or an Observable only when they return one. What fails must still reach the
// filters and the built-in exception answer, as on the full path.

const Later = createParamDecorator(async (data: unknown, ctx: ExecutionContext) => `${ctx.switchToWs().getPattern()} later`)

@WebSocketGateway()
class PlainGateway {
  @SubscribeMessage('value')
  value (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('response')
  response (@MessageBody() data: string): WsResponse<string> { return { event: 'answered', data } }

  @SubscribeMessage('throws')
  throws () { throw new WsException('thrown') }

  @SubscribeMessage('throwsError')
  throwsError () { throw new Error('detail') }

  @SubscribeMessage('rejects')
  async rejects () { throw new WsException('rejected') }

  @SubscribeMessage('rejectsError')
  rejectsError () { return Promise.reject(new Error('detail')) }

  @SubscribeMessage('resolves')
  async resolves (@MessageBody() data: number) { return data + 1 }

  @SubscribeMessage('stream')
  stream (@MessageBody() data: number): Observable<WsResponse<number>> { return of({ event: 'item', data }, { event: 'item', data: data + 1 }) }

  @SubscribeMessage('streamFails')
  streamFails () { return concat(of({ event: 'item', data: 0 }), throwError(() => new WsException('stream failed'))) }

  @SubscribeMessage('laterStream')
  async laterStream () { return of({ event: 'item', data: 'later' }) }

  @SubscribeMessage('custom')
  custom (@Later() later: string, @MessageBody() data: string) { return `${later} ${data}` }

  @SubscribeMessage('nothing')
  nothing () { return undefined }
}

@Module({ providers: [PlainGateway] })
class PlainModule {}

test('no enhancers: values, WsResponses, promises, Observables and custom arguments answer as on the full path', async (t) => {
  const app = await build(t, PlainModule)
  const client = await wsClient(t, await listening(app))
  client.send('value', { a: 1 })
  assert.deepEqual(await client.next(), { a: 1 })
  client.send('response', 'x')
  assert.deepEqual(await client.next(), { event: 'answered', data: 'x' })
  client.send('resolves', 1)
  assert.equal(await client.next(), 2)
  client.send('stream', 5)
  assert.deepEqual([await client.next(), await client.next()], [{ event: 'item', data: 5 }, { event: 'item', data: 6 }])
  client.send('laterStream')
  assert.deepEqual(await client.next(), { event: 'item', data: 'later' })
  client.send('custom', 'd')
  assert.equal(await client.next(), 'custom later d')
  // Nothing is sent for undefined: the next answer is the next message's.
  client.send('nothing')
  client.send('value', 'after')
  assert.equal(await client.next(), 'after')
})

test('no enhancers: a sync throw, a rejected promise and an Observable error answer the exception event', async (t) => {
  const app = await build(t, PlainModule)
  const client = await wsClient(t, await listening(app))
  const internal = (pattern: string) => ({ event: 'exception', data: { status: 'error', message: 'Internal server error', cause: { pattern, data: null } } })
  client.send('throws', 1)
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'thrown', cause: { pattern: 'throws', data: 1 } } })
  client.send('throwsError', null)
  assert.deepEqual(await client.next(), internal('throwsError'))
  client.send('rejects', 2)
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'rejected', cause: { pattern: 'rejects', data: 2 } } })
  client.send('rejectsError', null)
  assert.deepEqual(await client.next(), internal('rejectsError'))
  client.send('streamFails', 3)
  assert.deepEqual(await client.next(), { event: 'item', data: 0 })
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'stream failed', cause: { pattern: 'streamFails', data: 3 } } })
  client.send('value', 'still serving')
  assert.equal(await client.next(), 'still serving')
})

@Catch()
class EveryFilter implements ExceptionFilter {
  catch (exception: Error, host: ArgumentsHost) {
    const ws = host.switchToWs()
    ws.getClient().send(JSON.stringify({ event: 'filtered', data: `${ws.getPattern()}: ${exception.message}` }))
  }
}

@WebSocketGateway({ path: '/filtered' })
@UseFilters(EveryFilter)
class FilteredGateway {
  @SubscribeMessage('throws')
  throws () { throw new Error('sync') }

  @SubscribeMessage('rejects')
  async rejects () { throw new Error('async') }

  @SubscribeMessage('streamFails')
  streamFails () { return throwError(() => new Error('stream')) }

  @SubscribeMessage('value')
  value (@MessageBody() data: unknown) { return data }
}

@Module({ providers: [FilteredGateway] })
class FilteredModule {}

test('no guards, pipes or interceptors but a filter: what fails reaches the filter', async (t) => {
  const app = await build(t, FilteredModule)
  const client = await wsClient(t, await listening(app), '/filtered')
  for (const [event, message] of [['throws', 'sync'], ['rejects', 'async'], ['streamFails', 'stream']]) {
    client.send(event)
    assert.deepEqual(await client.next(), { event: 'filtered', data: `${event}: ${message}` })
  }
  client.send('value', 1)
  assert.equal(await client.next(), 1)
})

@WebSocketGateway({ namespace: 'acks' })
class AckGateway {
  @SubscribeMessage('now')
  now (@MessageBody() data: string) { return `now ${data}` }

  @SubscribeMessage('later')
  async later (@MessageBody() data: string) { return `later ${data}` }

  @SubscribeMessage('rejects')
  async rejects () { throw new WsException('no ack') }
}

@Module({ providers: [AckGateway] })
class AckModule {}

test('no enhancers under socket.io: a value and a resolved promise are acknowledged, a rejection answers the exception event', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AckModule, websocketAdapter: new IoAdapter(app.server) })
  const port = await listening(app)
  const socket: ClientSocket = io(`http://127.0.0.1:${port}/acks`, { transports: ['websocket'], forceNew: true })
  t.after(() => socket.disconnect())
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject) })
  assert.equal(await socket.emitWithAck('now', 'a'), 'now a')
  assert.equal(await socket.emitWithAck('later', 'b'), 'later b')
  const exception = new Promise((resolve) => socket.once('exception', resolve))
  socket.emit('rejects', 'c')
  assert.deepEqual(await exception, { status: 'error', message: 'no ack', cause: { pattern: 'rejects', data: 'c' } })
})

// The path is chosen once, from the plan: without enhancers a handler's value comes back as it
// is, with none of the promise and Observable work the full path does per message.
test('the direct path gives a sync handler\'s value itself; with a guard the callback gives a promise', async () => {
  class Echo {
    echo (data: unknown) { return data }
  }
  const plan = (guards: MessagePlan['guards']): MessagePlan => ({
    instance: new Echo(),
    cls: Echo,
    key: 'echo',
    method: Echo.prototype.echo,
    event: 'echo',
    params: [{ index: 0, kind: 'body', pipes: [] }],
    paramTypes: undefined,
    guards,
    pipes: [],
    interceptors: [],
    filters: [],
    log: () => {}
  })
  const client = {}
  assert.deepEqual(messageCallback(plan([]))(client, { a: 1 }, 'echo'), { a: 1 })
  const guarded = messageCallback(plan([{ canActivate: () => true }]))(client, { a: 1 }, 'echo')
  assert.ok(guarded instanceof Promise)
  assert.deepEqual(await guarded, { a: 1 })
})
