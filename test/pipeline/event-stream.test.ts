import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { PassThrough, Transform, pipeline } from 'node:stream'
import { Observable, interval, map, of, throwError, concat } from 'rxjs'
import {
  Module, Controller, Sse, Get, Header, HttpCode, Inject, Injectable, Redirect, Render, Res, Scope, UseGuards, UseInterceptors, REQUEST,
  NotFoundException, errors, type CallHandler, type ExecutionContext, type MessageEvent, type NestInterceptor
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { collected } from '../helpers/gc.js'
import { registrationError } from '../helpers/registration.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// The arguments of each call to one of the app's log methods, until the test ends.
function logged (t: TestContext, app: FastifyInstance, level: 'error' | 'warn'): unknown[][] {
  const calls: unknown[][] = []
  const original = app.log[level]
  app.log[level] = ((...args: unknown[]) => { calls.push(args) }) as typeof original
  t.after(() => { app.log[level] = original })
  return calls
}

// What the producers of the socket tests did, per test.
const torn = { observable: 0, generator: 0, pulled: 0 }

class Upper implements NestInterceptor {
  intercept (ctx: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((event: MessageEvent) => ({ ...event, data: String(event.data).toUpperCase() })))
  }
}

class Passing implements NestInterceptor {
  intercept (ctx: ExecutionContext, next: CallHandler) { return next.handle() }
}

class PassingAsync implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler) { await tick(); return next.handle() }
}

const awaitedHandle: unknown[] = []

@Controller('events')
class Events {
  @Sse('observable') observable () {
    return of<Array<MessageEvent | string>>(
      { data: { a: 1 } }, { data: 'two\nlines', type: 'note', id: 'x7', retry: 500 }, 'plain', { comment: 'hi' }, { data: 'numbered' },
      // JSON data beside other fields, and with id or retry given as null (no line).
      { data: { b: [2] }, type: 'json', comment: 'c' }, { data: { c: 'x\ny' }, id: null as unknown as string, retry: null as unknown as number }
    )
  }

  @Sse('generator') async * generator () {
    yield { data: 'one' }
    await tick()
    yield { data: 'two', type: 'last' }
  }

  @Sse('failing') failing () {
    return concat(of({ data: 'ok' }), new Observable<MessageEvent>((s) => { setImmediate(() => s.error(new NotFoundException('gone away'))) }))
  }

  @Sse('crashing') async * crashing () {
    yield { data: 'ok' }
    await tick()
    throw new Error('secret detail')
  }

  @Sse('early') early () { return throwError(() => new NotFoundException('no such feed')) }
  // Failing after the handler returned, before the first event and before the next turn.
  @Sse('early-later') earlyLater () { return new Observable<MessageEvent>((s) => { queueMicrotask(() => s.error(new NotFoundException('gone before it began'))) }) }
  @Sse('early-generator') async * earlyGenerator () {
    if (torn.pulled >= 0) throw new NotFoundException('no generator feed')
    yield { data: 'never' }
  }

  // An event JSON cannot write (a BigInt), as the first one and after one was sent.
  @Sse('unwritable') unwritable () { return of({ data: { n: 1n } }) }
  @Sse('unwritable-later') unwritableLater () { return concat(of({ data: 'ok' }), new Observable<MessageEvent>((s) => { setImmediate(() => s.next({ data: { n: 2n } })) })) }
  // The first event a microtask after the handler returned.
  @Sse('later') later () { return new Observable<MessageEvent>((s) => { queueMicrotask(() => { s.next({ data: 'soon' }); s.complete() }) }) }
  @Sse('wrong') wrong () { return { data: 'not a stream' } }
  // An async iterable whose next() throws at once; an Observable whose teardown throws.
  @Sse('next-throws') nextThrows () {
    return { [Symbol.asyncIterator]: () => ({ next (): Promise<IteratorResult<MessageEvent>> { throw new NotFoundException('no next event') } }) }
  }

  @Sse('teardown-throws') teardownThrows () {
    return {
      subscribe (observer: { next: (event: MessageEvent) => void, complete: () => void }) {
        observer.next({ data: 'x' })
        setImmediate(() => observer.complete())
        return { unsubscribe () { throw new Error('teardown broke') } }
      }
    }
  }

  @Sse('empty') empty () { return of() }

  @Sse('shaped') @Header('x-extra', 'yes') @Header('cache-control', 'max-age=60') @HttpCode(203) shaped () { return of({ data: 'x' }) }

  @Sse('upper') @UseInterceptors(Upper) upper () { return of({ data: 'a' }, { data: 'b' }) }
  @Sse('upper-generator') @UseInterceptors(Upper) async * upperGenerator () { yield { data: 'c' }; yield { data: 'd' } }

  // Interceptors that hand next.handle() on as it is, from intercept or from an async intercept,
  // nested, and one that awaits it (as in NestJS, it gets the stream's Observable).
  @Sse('passed') @UseInterceptors(Passing) passed () { return of({ data: 'e' }, { data: 'f' }) }
  @Sse('passed-async') @UseInterceptors(PassingAsync, Passing, Upper) async * passedAsync () { yield { data: 'g' }; await tick(); yield { data: 'h' } }
  @Sse('awaited') @UseInterceptors({ intercept: async (ctx: ExecutionContext, next: CallHandler) => { awaitedHandle.push(await next.handle()); return of({ data: 'i' }) } })
  awaited () { return of({ data: 'never sent' }) }

  @Sse('denied') @UseGuards({ canActivate: () => false }) denied () { return of({ data: 'x' }) }

  @Sse('ticks') ticks () {
    return new Observable<MessageEvent>((subscriber) => {
      const timer = setInterval(() => subscriber.next({ data: 'tick' }), 5)
      return () => { clearInterval(timer); torn.observable++ }
    })
  }

  @Sse('flood') flood () {
    return interval(1).pipe(map(() => ({ data: 'x'.repeat(32 * 1024) })), (source) => new Observable<MessageEvent>((s) => {
      const sub = source.subscribe(s)
      return () => { sub.unsubscribe(); torn.observable++ }
    }))
  }

  @Sse('pulled') async * pulled () {
    try {
      for (;;) {
        torn.pulled++
        yield { data: 'y'.repeat(16 * 1024) }
      }
    } finally {
      torn.generator++
    }
  }

  @Get('ping') ping () { return 'pong' }
}

const releases: Array<WeakRef<object>> = []

@Injectable({ scope: Scope.REQUEST })
class PerRequest {
  constructor (@Inject(REQUEST) readonly req: object) { releases.push(new WeakRef(this)) }
}

@Controller('scoped')
class Scoped {
  constructor (@Inject(PerRequest) readonly perRequest: PerRequest) {}
  @Sse() stream () { return interval(5).pipe(map((n) => ({ data: n }))) }
}

@Module({ controllers: [Events, Scoped], providers: [PerRequest] })
class EventsModule {}

test('@Sse(): an Observable streams text/event-stream with the headers NestJS sends', async (t) => {
  const app = await build(t, EventsModule)
  const res = await app.inject('/events/observable')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'text/event-stream')
  assert.equal(res.headers['cache-control'], 'private, no-cache, no-store, must-revalidate, max-age=0, no-transform')
  assert.equal(res.headers.connection, 'keep-alive')
  assert.equal(res.headers.pragma, 'no-cache')
  assert.equal(res.headers.expires, '0')
  assert.equal(res.headers['x-accel-buffering'], 'no')
  assert.equal(res.body, '\n' +
    'id: 1\ndata: {"a":1}\n\n' +
    'event: note\nid: x7\nretry: 500\ndata: two\ndata: lines\n\n' +
    'id: 2\ndata: plain\n\n' +
    ': hi\n\n' +
    'id: 3\ndata: numbered\n\n' +
    'event: json\nid: 4\n: c\ndata: {"b":[2]}\n\n' +
    'id: 5\ndata: {"c":"x\\ny"}\n\n')
})

test('@Sse(): an async iterable streams its events', async (t) => {
  const app = await build(t, EventsModule)
  const res = await app.inject('/events/generator')
  assert.equal(res.headers['content-type'], 'text/event-stream')
  assert.equal(res.body, '\nid: 1\ndata: one\n\nevent: last\nid: 2\ndata: two\n\n')
  const empty = await app.inject('/events/empty')
  assert.equal(empty.statusCode, 200)
  assert.equal(empty.body, '\n')
})

test('@Sse(): an error once the stream has begun ends it with an error event', async (t) => {
  const app = await build(t, EventsModule)
  const http = await app.inject('/events/failing')
  assert.equal(http.statusCode, 200)
  assert.equal(http.body, '\nid: 1\ndata: ok\n\nevent: error\nid: 2\ndata: gone away\n\n')
  // Any other error does not show its message.
  const crash = await app.inject('/events/crashing')
  assert.equal(crash.body, '\nid: 1\ndata: ok\n\nevent: error\nid: 2\ndata: Internal server error\n\n')
})

test('@Sse(): a producer whose teardown throws is logged; the stream ends as sent', async (t) => {
  const app = await build(t, EventsModule)
  const errors = logged(t, app, 'error')
  const res = await app.inject('/events/teardown-throws')
  assert.equal(res.body, '\nid: 1\ndata: x\n\n')
  assert.equal(errors.length, 1)
  const [details, message] = errors[0] as [{ err: Error }, string]
  assert.equal(message, 'An event stream\'s producer failed as it was torn down')
  assert.equal(details.err.message, 'teardown broke')
  assert.equal((await app.inject('/events/ping')).body, 'pong')
})

test('@Sse(): an error before the stream begins goes to the exception filters; a result that is no stream is a 500', async (t) => {
  const logs: string[] = []
  const app = await build(t, EventsModule, {}, (app) => app.addHook('onError', async (req, reply, error) => { logs.push(error.message) }))
  const early = await app.inject('/events/early')
  assert.equal(early.statusCode, 404)
  assert.deepEqual(early.json(), { statusCode: 404, message: 'no such feed', error: 'Not Found' })
  const earlyLater = await app.inject('/events/early-later')
  assert.equal(earlyLater.statusCode, 404)
  assert.deepEqual(earlyLater.json(), { statusCode: 404, message: 'gone before it began', error: 'Not Found' })
  const earlyGenerator = await app.inject('/events/early-generator')
  assert.equal(earlyGenerator.statusCode, 404)
  assert.deepEqual(earlyGenerator.json(), { statusCode: 404, message: 'no generator feed', error: 'Not Found' })
  assert.equal((await app.inject('/events/unwritable')).statusCode, 500)
  assert.match(logs.at(-1)!, /BigInt/)
  const unwritableLater = await app.inject('/events/unwritable-later')
  assert.equal(unwritableLater.statusCode, 200)
  assert.equal(unwritableLater.body, '\nid: 1\ndata: ok\n\nevent: error\nid: 2\ndata: Internal server error\n\n')
  const later = await app.inject('/events/later')
  assert.equal(later.statusCode, 200)
  assert.equal(later.body, '\nid: 1\ndata: soon\n\n')
  const nextThrows = await app.inject('/events/next-throws')
  assert.equal(nextThrows.statusCode, 404)
  assert.deepEqual(nextThrows.json(), { statusCode: 404, message: 'no next event', error: 'Not Found' })
  const wrong = await app.inject('/events/wrong')
  assert.equal(wrong.statusCode, 500)
  assert.match(logs.at(-1)!, /^Events\.wrong is an @Sse\(\) route and returned .*: return an Observable or an async iterable of MessageEvent/)
  assert.equal(errors.ERR_INVALID_EVENT_STREAM.name, 'FastifyError')
  assert.equal((await app.inject('/events/ping')).body, 'pong')
})

test('@Sse(): @Header() and @HttpCode() apply, the event-stream headers win; interceptors see each event; guards answer first', async (t) => {
  const app = await build(t, EventsModule)
  const shaped = await app.inject('/events/shaped')
  assert.equal(shaped.statusCode, 203)
  assert.equal(shaped.headers['x-extra'], 'yes')
  assert.equal(shaped.headers['cache-control'], 'private, no-cache, no-store, must-revalidate, max-age=0, no-transform')
  assert.equal((await app.inject('/events/upper')).body, '\nid: 1\ndata: A\n\nid: 2\ndata: B\n\n')
  assert.equal((await app.inject('/events/upper-generator')).body, '\nid: 1\ndata: C\n\nid: 2\ndata: D\n\n')
  // next.handle() returned as it is streams each event; there it is an Observable, never a promise.
  assert.equal((await app.inject('/events/passed')).body, '\nid: 1\ndata: e\n\nid: 2\ndata: f\n\n')
  assert.equal((await app.inject('/events/passed-async')).body, '\nid: 1\ndata: G\n\nid: 2\ndata: H\n\n')
  assert.equal((await app.inject('/events/awaited')).body, '\nid: 1\ndata: i\n\n')
  assert.equal(awaitedHandle.length, 1)
  assert.ok(awaitedHandle[0] instanceof Observable)
  assert.equal(typeof (awaitedHandle[0] as { then?: unknown }).then, 'undefined')
  const denied = await app.inject('/events/denied')
  assert.equal(denied.statusCode, 403)
  assert.equal(denied.headers['content-type'], 'application/json; charset=utf-8')
})

test('@Sse(): onSend hooks can pipe the stream on (Node\'s pipeline, once), and one that fails lets the producer go; trailers are sent after the last event', async (t) => {
  const ends: string[] = []
  const twice: string[] = []
  const app = await build(t, EventsModule, {}, (app) => {
    app.addHook('onRequest', async (req, reply) => {
      if (req.url.endsWith('trailer')) reply.trailer('x-events', async () => 'all sent')
    })
    app.addHook('onSend', async (req, reply, payload) => {
      // The stream piped on through Node's pipeline(), whose outcome is kept.
      const through = (transform: Transform['_transform']): Transform => {
        const stream = new Transform({ transform })
        pipeline(payload as NodeJS.ReadableStream, stream, (error) => { ends.push(error === undefined || error === null ? 'ended' : error.message) })
        return stream
      }
      if (req.url.endsWith('upper')) return through((chunk, encoding, done) => { done(null, String(chunk).toUpperCase()) })
      if (req.url.endsWith('broken')) return through((chunk, encoding, done) => { done(new Error('transform broke')) })
      if (req.url.endsWith('twice')) {
        const copy = new PassThrough()
        ;(payload as NodeJS.ReadableStream).pipe(copy)
        try { (payload as NodeJS.ReadableStream).pipe(new PassThrough()) } catch (error) { twice.push((error as Error).message) }
        return copy
      }
      return payload
    })
  })
  // An Observable's burst and a generator's events, each through the hook's stream.
  assert.equal((await app.inject('/events/observable?upper')).body.split('\n')[1], 'ID: 1')
  assert.equal((await app.inject('/events/generator?upper')).body, '\nID: 1\nDATA: ONE\n\nEVENT: LAST\nID: 2\nDATA: TWO\n\n')
  assert.deepEqual(ends, ['ended', 'ended'])
  // A hook's stream that fails: the producer is let go of, and the server serves on.
  const before = torn.observable
  const broken = await app.inject('/events/ticks?broken')
  assert.equal(broken.statusCode, 500)
  assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(ends.at(-1), 'transform broke')
  assert.equal(torn.observable, before + 1)
  assert.equal((await app.inject('/events/later?twice')).body, '\nid: 1\ndata: soon\n\n')
  assert.deepEqual(twice, ['An event stream is sent to one destination only; it was piped twice.'])
  const trailed = await app.inject('/events/generator?trailer')
  assert.equal(trailed.body, '\nid: 1\ndata: one\n\nevent: last\nid: 2\ndata: two\n\n')
  assert.equal(trailed.trailers['x-events'], 'all sent')
  assert.equal((await app.inject('/events/ping')).body, 'pong')
})

test('@Sse() refuses a path or limit it cannot use, naming the fix', () => {
  assert.throws(() => Sse(5 as unknown as string), /@Sse\(\) takes a path string, given number 5/)
  assert.throws(() => Sse('x', { maxPendingDataLength: -1 }), /maxPendingDataLength.*0 or Infinity for no limit/)
  assert.throws(() => Sse('x', null as never), /@Sse\(\) takes \{ maxPendingDataLength \}/)
})

test('@Sse() with @Render(), @Redirect() or a @Res() it would answer on fails registration, naming the fix; passthrough is kept', async (t) => {
  class Rendered { events () { return of({ data: 1 }) } }
  Render('page')(Rendered.prototype, 'events', Object.getOwnPropertyDescriptor(Rendered.prototype, 'events')!)
  class Redirected { events () { return of({ data: 1 }) } }
  Redirect('/elsewhere')(Redirected.prototype, 'events', Object.getOwnPropertyDescriptor(Redirected.prototype, 'events')!)
  class Replied { events (reply: unknown) { return of({ data: 1 }) } }
  Res()(Replied.prototype, 'events', 0)
  const cases: Array<[Function, RegExp]> = [
    [Rendered, /^Rendered\.events has both @Sse\(\) and @Render\(\); an event stream is the whole answer\. Remove @Render\(\)/],
    [Redirected, /^Redirected\.events has both @Sse\(\) and @Redirect\(\)/],
    [Replied, /^Replied\.events has @Sse\(\) and takes the reply with @Res\(\) \(parameter 0\).*Use @Res\(\{ passthrough: true \}\)/]
  ]
  for (const [cls, message] of cases) {
    Sse('events')(cls.prototype, 'events', Object.getOwnPropertyDescriptor(cls.prototype, 'events')!)
    Controller('c')(cls)
    class AppModule {}
    Module({ controllers: [cls as new () => object] })(AppModule)
    const error = await registrationError({ module: AppModule })
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, message)
  }

  @Controller('passthrough')
  class Passthrough {
    @Sse() events (@Res({ passthrough: true }) reply: { header: (name: string, value: string) => unknown }) {
      reply.header('x-stream', 'yes')
      return of({ data: 'kept' })
    }
  }
  @Module({ controllers: [Passthrough] })
  class PassthroughModule {}
  const app = await build(t, PassthroughModule)
  const response = await app.inject('/passthrough')
  assert.equal(response.headers['x-stream'], 'yes')
  assert.equal(response.body, '\nid: 1\ndata: kept\n\n')
})

// A raw HTTP/1.1 client over loopback: what it reads, and its socket.
async function open (port: number, path: string, read = true): Promise<{ socket: Socket, text: () => string, until: (s: string) => Promise<void> }> {
  const socket = connect(port, '127.0.0.1')
  let text = ''
  if (read) socket.on('data', (chunk) => { text += chunk.toString() })
  else socket.pause()
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`)
  return {
    socket,
    text: () => text,
    until: async (s) => { while (!text.includes(s)) await wait(5) }
  }
}

async function listen (t: import('node:test').TestContext) {
  const app = await build(t, EventsModule)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as { port: number }).port }
}

test('@Sse() over a socket: a client that goes away is unsubscribed; the server keeps serving', async (t) => {
  const { app, port } = await listen(t)
  const before = torn.observable
  const client = await open(port, '/events/ticks')
  await client.until('id: 2\ndata: tick')
  assert.match(client.text(), /^HTTP\/1\.1 200 OK\r\n[^]*content-type: text\/event-stream/i)
  client.socket.destroy()
  while (torn.observable === before) await wait(5)
  // A half-closed client: the server ends the stream too.
  const half = await open(port, '/events/ticks')
  await half.until('data: tick')
  half.socket.end()
  while (torn.observable === before + 1) await wait(5)
  assert.equal((await app.inject('/events/ping')).body, 'pong')
})

test('@Sse() over a socket: request-scoped instances are released once the client leaves', async (t) => {
  const { port } = await listen(t)
  const client = await open(port, '/scoped')
  await client.until('data: 2')
  assert.equal(releases.length, 1)
  client.socket.destroy()
  await wait(50)
  let gone = false
  for (let i = 0; i < 20 && !gone; i++) { gone = (await collected(releases))[0]; await wait(10) }
  assert.ok(gone, 'the request-scoped provider was kept after the client left')
})

test('@Sse() over a socket: an Observable client that stops reading is dropped past maxPendingDataLength', async (t) => {
  const { app, port } = await listen(t)
  const warnings = logged(t, app, 'warn')
  const before = torn.observable
  const client = await open(port, '/events/flood', false)
  const closed = new Promise((resolve) => client.socket.once('close', resolve))
  client.socket.on('error', () => {})
  while (torn.observable === before) await wait(10)
  assert.match(warnings.map((args) => String(args[0])).join('\n'), /not reading: \d+ characters of events wait for it, more than the 4194304 allowed/)
  client.socket.resume()
  await closed
  assert.equal((await app.inject('/events/ping')).body, 'pong')
})

test('@Sse() over a socket: an async iterable is read only as fast as its client reads, and ended when it leaves', async (t) => {
  const { port } = await listen(t)
  const generators = torn.generator
  torn.pulled = 0
  const client = await open(port, '/events/pulled', false)
  await wait(300)
  const pulled = torn.pulled
  await wait(200)
  // Stalled: the socket's buffers and the stream's are full, nothing more is read from the generator.
  assert.equal(torn.pulled, pulled)
  assert.ok(pulled < 1000, `${pulled} events were read for a client that reads nothing`)
  client.socket.destroy()
  while (torn.generator === generators) await wait(5)
})
