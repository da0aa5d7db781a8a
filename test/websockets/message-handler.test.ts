import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Observable, of, throwError, concat } from 'rxjs'
import Fastify from 'fastify'
import * as nest from '@nestjs/common'
import { IoAdapter } from '@nestjs/platform-socket.io'
import { io, type Socket as ClientSocket } from 'socket.io-client'
import {
  Catch, FastifyWsAdapter, NotFoundException, MessageBody, Module, SubscribeMessage, UseFilters, UseGuards, UseInterceptors, WebSocketGateway, WsException, createParamDecorator, decoratorPlugin,
  type ArgumentsHost, type CallHandler, type CanActivate, type ExceptionFilter, type ExecutionContext, type WsMessageHandler, type WsResponse
} from '../../plugin/index.js'
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

// next.handle() handed on as it is: each value of the handler's Observable is sent, as without
// the interceptor, and what fails still reaches the exception event.
const passing = { intercept: (ctx: ExecutionContext, next: CallHandler) => next.handle() }

@WebSocketGateway({ path: '/passing' })
@UseInterceptors(passing)
class PassingGateway {
  @SubscribeMessage('stream')
  stream (@MessageBody() data: number) { return of({ event: 'item', data }, { event: 'item', data: data + 1 }) }

  @SubscribeMessage('value')
  value (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('throws')
  throws () { throw new WsException('thrown behind') }
}

@Module({ providers: [PassingGateway] })
class PassingModule {}

test('an interceptor returning next.handle() as it is: every value of an Observable is sent, a throw answers the exception event', { timeout: 10_000 }, async (t) => {
  const app = await build(t, PassingModule)
  const client = await wsClient(t, await listening(app), '/passing')
  client.send('stream', 5)
  assert.deepEqual([await client.next(), await client.next()], [{ event: 'item', data: 5 }, { event: 'item', data: 6 }])
  client.send('value', 'plain')
  assert.equal(await client.next(), 'plain')
  client.send('throws', 1)
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'thrown behind', cause: { pattern: 'throws', data: 1 } } })
  client.send('value', 'still serving')
  assert.equal(await client.next(), 'still serving')
})

// A filter that catches NestJS's NotFoundException, on a gateway that throws the plugin's.
class NestNotFoundFilter implements ExceptionFilter {
  catch (exception: Error, host: ArgumentsHost) {
    host.switchToWs().getClient().send(JSON.stringify({ event: 'not-found', data: exception.message }))
  }
}
nest.Catch(nest.NotFoundException)(NestNotFoundFilter)

@WebSocketGateway({ path: '/typed' })
@UseFilters(NestNotFoundFilter)
class TypedFilterGateway {
  @SubscribeMessage('missing')
  missing () { throw new NotFoundException('no such room') }

  @SubscribeMessage('other')
  other () { throw new Error('not caught') }
}

@Module({ providers: [TypedFilterGateway] })
class TypedFilterModule {}

test('a gateway filter catches by type as route filters do: NestJS\'s exception classes match the plugin\'s', async (t) => {
  const app = await build(t, TypedFilterModule)
  const client = await wsClient(t, await listening(app), '/typed')
  client.send('missing')
  assert.deepEqual(await client.next(), { event: 'not-found', data: 'no such room' })
  client.send('other')
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'Internal server error', cause: { pattern: 'other' } } })
})

@Catch()
class ThrowingFilter implements ExceptionFilter {
  catch () { throw new Error('filter broke') }
}

@WebSocketGateway({ path: '/broken-filter' })
@UseFilters(ThrowingFilter)
class BrokenFilterGateway {
  @SubscribeMessage('fails')
  fails () { throw new Error('handler failed') }

  @SubscribeMessage('value')
  value (@MessageBody() data: unknown) { return data }
}

@Module({ providers: [BrokenFilterGateway] })
class BrokenFilterModule {}

test('a gateway filter that throws is logged, naming the filter and the handler; the client and the server go on', async (t) => {
  const lines: Array<{ msg: string, err?: { message: string } }> = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: BrokenFilterModule })
  const client = await wsClient(t, await listening(app), '/broken-filter')
  client.send('fails')
  client.send('value', 'after')
  assert.equal(await client.next(), 'after')
  const logged = lines.find((line) => line.msg.startsWith('Exception filter'))
  assert.equal(logged?.msg, 'Exception filter ThrowingFilter threw in BrokenFilterGateway.fails')
  assert.equal(logged?.err?.message, 'filter broke')
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
  // NestJS's adapters get a promise from every callback, as NestJS gives them.
  const given: unknown[] = []
  class RecordingIoAdapter extends IoAdapter {
    bindMessageHandlers (socket: any, handlers: Parameters<IoAdapter['bindMessageHandlers']>[1], transform: (data: any) => any): void {
      super.bindMessageHandlers(socket, handlers.map((handler) => ({ ...handler, callback: (...args: unknown[]) => { const value = handler.callback(...args); given.push(value); return value } })), transform)
    }
  }
  await app.register(decoratorPlugin, { module: AckModule, websocketAdapter: new RecordingIoAdapter(app.server) })
  const port = await listening(app)
  const socket: ClientSocket = io(`http://127.0.0.1:${port}/acks`, { transports: ['websocket'], forceNew: true })
  t.after(() => socket.disconnect())
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject) })
  assert.equal(await socket.emitWithAck('now', 'a'), 'now a')
  assert.equal(await socket.emitWithAck('later', 'b'), 'later b')
  const exception = new Promise((resolve) => socket.once('exception', resolve))
  socket.emit('rejects', 'c')
  assert.deepEqual(await exception, { status: 'error', message: 'no ack', cause: { pattern: 'rejects', data: 'c' } })
  assert.equal(given.length, 3)
  for (const value of given) assert.ok(value instanceof Promise)
})

// What the handlers' callbacks give the adapter, recorded by an adapter over the plugin's own.
const returned: unknown[] = []
class RecordingAdapter extends FastifyWsAdapter {
  bindMessageHandlers (client: any, handlers: WsMessageHandler[], transform: (data: any) => any): void {
    const recording = handlers.map((handler) => ({ ...handler, callback: (...args: unknown[]) => { const value = handler.callback(...args); returned.push(value); return value } }))
    super.bindMessageHandlers(client, recording, transform)
  }
}

const allow: CanActivate = { canActivate: () => true }
const allowLater: CanActivate = { canActivate: async () => true }

@WebSocketGateway()
class PathsGateway {
  @SubscribeMessage('plain')
  plain (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('guarded')
  @UseGuards(allow)
  guarded (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('guardedLater')
  @UseGuards(allowLater)
  guardedLater (@MessageBody() data: unknown) { return data }

  @SubscribeMessage('async')
  async async (@MessageBody() data: unknown) { return data }
}

@Module({ providers: [PathsGateway] })
class PathsModule {}

// Composed once from what the handler declares: nothing waits that has its value now, so a
// handler's value reaches the adapter as it is, a promise only where something is pending.
test('a handler\'s value reaches the adapter as it is; a promise only where a guard or the handler is pending', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: PathsModule, websocketAdapter: new RecordingAdapter(app.server) })
  const client = await wsClient(t, await listening(app))
  for (const event of ['plain', 'guarded', 'guardedLater', 'async']) {
    returned.length = 0
    client.send(event, { n: 1 })
    assert.deepEqual(await client.next(), { n: 1 }, event)
    assert.equal(returned.length, 1)
    const pending = event === 'guardedLater' || event === 'async'
    assert.equal(returned[0] instanceof Promise, pending, event)
    if (!pending) assert.deepEqual(returned[0], { n: 1 }, event)
  }
})
