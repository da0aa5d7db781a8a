import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { once } from 'node:events'
import {
  Catch, Controller, Get, Header, HttpCode, Module, Res, StreamableFile, UseFilters, UseInterceptors,
  type ArgumentsHost, type CallHandler, type ExceptionFilter, type ExecutionContext, type NestInterceptor, type Response
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

class SeenFile implements NestInterceptor {
  static seen: unknown[] = []
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    const value = await next.handle()
    SeenFile.seen.push(value instanceof StreamableFile ? value.getHeaders() : value)
    return value
  }
}

@Controller('files')
class FilesController {
  @Get('stream') stream () { return new StreamableFile(Readable.from(['first,', 'second'])) }
  @Get('buffer') buffer () { return new StreamableFile(Buffer.from('a,b\n1,2\n'), { type: 'text/csv', disposition: 'attachment; filename="report.csv"' }) }
  @Get('bytes') async bytes () { await tick(); return new StreamableFile(new Uint8Array([1, 2, 3, 4]).subarray(1)) }
  @Get('known-length') known () { return new StreamableFile(Readable.from([Buffer.from('12345')]), { length: 5, type: 'text/plain' }) }
  @Get('own-headers') @Header('Content-Type', 'application/json') @Header('Content-Disposition', 'inline')
  ownHeaders () { return new StreamableFile(Buffer.from('{"a":1}'), { type: 'text/plain', disposition: 'attachment' }) }

  @Get('passthrough') passthrough (@Res({ passthrough: true }) res: Response) {
    res.header('content-type', 'image/png')
    return new StreamableFile(Buffer.from([137, 80, 78, 71]))
  }

  @Get('intercepted') @UseInterceptors(SeenFile) intercepted () { return new StreamableFile(Buffer.from('x'), { type: 'text/plain' }) }
  @Get('observable') observable () {
    const file = new StreamableFile(Buffer.from('from an observable'))
    return { subscribe (observer: any) { observer.next(file); observer.complete() } }
  }

  @Get('empty') @HttpCode(204) empty () { return new StreamableFile(Buffer.from('dropped')) }
}

@Module({ controllers: [FilesController] })
class FilesModule {}

test('a returned StreamableFile of a stream is streamed, Content-Type application/octet-stream, no length', async (t) => {
  const app = await build(t, FilesModule)
  const res = await app.inject('/files/stream')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'first,second')
  assert.equal(res.headers['content-type'], 'application/octet-stream')
  assert.equal(res.headers['content-length'], undefined)
  assert.equal(res.headers['transfer-encoding'], 'chunked')
})

test('a Buffer or Uint8Array gives its length; type and disposition come from the options', async (t) => {
  const app = await build(t, FilesModule)
  const csv = await app.inject('/files/buffer')
  assert.equal(csv.statusCode, 200)
  assert.equal(csv.body, 'a,b\n1,2\n')
  assert.equal(csv.headers['content-type'], 'text/csv')
  assert.equal(csv.headers['content-disposition'], 'attachment; filename="report.csv"')
  assert.equal(csv.headers['content-length'], '8')

  // From an async handler, and a view into a larger array: only the view's bytes.
  const bytes = await app.inject('/files/bytes')
  assert.deepEqual([...bytes.rawPayload], [2, 3, 4])
  assert.equal(bytes.headers['content-length'], '3')

  const known = await app.inject('/files/known-length')
  assert.equal(known.headers['content-length'], '5')
  assert.equal(known.headers['content-type'], 'text/plain')
  assert.equal(known.body, '12345')
})

test('headers the reply already has win over the file\'s', async (t) => {
  const app = await build(t, FilesModule)
  const own = await app.inject('/files/own-headers')
  assert.equal(own.headers['content-type'], 'application/json')
  assert.equal(own.headers['content-disposition'], 'inline')
  assert.equal(own.body, '{"a":1}')

  const passthrough = await app.inject('/files/passthrough')
  assert.equal(passthrough.headers['content-type'], 'image/png')
  assert.deepEqual([...passthrough.rawPayload], [137, 80, 78, 71])
})

test('interceptors see the StreamableFile; an Observable of one is streamed too', async (t) => {
  SeenFile.seen = []
  const app = await build(t, FilesModule)
  const res = await app.inject('/files/intercepted')
  assert.equal(res.body, 'x')
  assert.equal(res.headers['content-type'], 'text/plain')
  assert.deepEqual(SeenFile.seen, [{ type: 'text/plain', disposition: undefined, length: 1 }])

  const observed = await app.inject('/files/observable')
  assert.equal(observed.body, 'from an observable')
  assert.equal(observed.headers['content-length'], '18')
})

test('HEAD gets the headers and no body; 204 sends no body', async (t) => {
  const app = await build(t, FilesModule)
  const head = await app.inject({ method: 'HEAD', url: '/files/buffer' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['content-type'], 'text/csv')
  assert.equal(head.headers['content-length'], '8')
  assert.equal(head.body, '')

  const empty = await app.inject('/files/empty')
  assert.equal(empty.statusCode, 204)
  assert.equal(empty.body, '')
})

test('the file is streamed: the client reads the first chunk before the source has ended, from a sync or an async handler', async (t) => {
  let release: () => void = () => {}
  let gate = Promise.resolve()
  const slowFile = () => {
    async function * chunks () { yield 'early chunk;'; await gate; yield 'late chunk' }
    return new StreamableFile(Readable.from(chunks()), { type: 'text/plain' })
  }
  @Controller('slow')
  class SlowController {
    @Get() file () { return slowFile() }
    @Get('later') async later () { await tick(); return slowFile() }
  }
  @Module({ controllers: [SlowController] })
  class SlowModule {}
  const app = await build(t, SlowModule)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }

  for (const path of ['/slow', '/slow/later']) {
    gate = new Promise<void>((resolve) => { release = resolve })
    const req = http.get({ host: '127.0.0.1', port, path, agent: false })
    const [res] = await once(req, 'response') as [http.IncomingMessage]
    assert.equal(res.headers['content-type'], 'text/plain', path)
    res.setEncoding('utf8')
    const [first] = await once(res, 'data')
    assert.equal(first, 'early chunk;', `${path}: the first chunk arrived while the source still waits`)
    release()
    let rest = ''
    res.on('data', (chunk) => { rest += chunk })
    await once(res, 'end')
    assert.equal(rest, 'late chunk', path)
  }
})

test('what an async handler gives Fastify settles to the file\'s stream, and rejects when the file cannot be sent', async (t) => {
  class BrokenFile extends StreamableFile {
    override getHeaders (): never { throw new Error('no headers') }
  }
  @Controller('pending')
  class PendingController {
    @Get('file') async file () { await tick(); return new StreamableFile(Buffer.from('later')) }
    @Get('value') async value () { await tick(); return { later: true } }
    @Get('fails') async fails () { await tick(); throw new Error('handler failed') }
    @Get('broken') async broken () { await tick(); return new BrokenFile(Buffer.from('x')) }
  }
  @Module({ controllers: [PendingController] })
  class PendingModule {}
  // What the composed handler of an async route returns.
  type Pending = PromiseLike<unknown> & Pick<Promise<unknown>, 'catch' | 'finally'>
  const handlers = new Map<string, (req: object, reply: object) => Pending>()
  const app = await build(t, PendingModule, {}, (app) => {
    app.addHook('onRoute', (route) => { if (route.method === 'GET') handlers.set(route.url, route.handler as unknown as (req: object, reply: object) => Pending) })
  })
  const handler = (path: string, reply: object = fakeReply()) => handlers.get(`/pending/${path}`)!({}, reply)

  // Fastify's own continuation gets the stream, with the file's headers on the reply.
  const reply = fakeReply()
  const stream = await new Promise((resolve, reject) => handler('file', reply).then(resolve, reject))
  assert.ok(stream instanceof Readable)
  assert.equal(reply.headers['content-type'], 'application/octet-stream')
  assert.equal(reply.headers['content-length'], '5')
  // A file that cannot be sent is a rejection, as a rejected handler is.
  await assert.rejects(new Promise((resolve, reject) => handler('broken').then(resolve, reject)), /no headers/)
  await assert.rejects(new Promise((resolve, reject) => handler('fails').then(resolve, reject)), /handler failed/)
  // A wrapper of the handler (an onRoute hook's) can use it as a promise.
  assert.deepEqual(await handler('value'), { later: true })
  assert.deepEqual(await handler('value').then(), { later: true })
  assert.equal(await handler('fails').catch((error: Error) => error.message), 'handler failed')
  let finished = false
  assert.deepEqual(await handler('value').finally(() => { finished = true }), { later: true })
  assert.equal(finished, true)
  await assert.rejects(Promise.resolve(handler('broken').then(undefined)), /no headers/)
  await assert.rejects(Promise.resolve(handler('broken').then(() => 'unreached')), /no headers/)

  // Through Fastify: the stream is sent, the failures are answered by the error handler.
  assert.equal((await app.inject('/pending/file')).body, 'later')
  assert.equal((await app.inject('/pending/broken')).statusCode, 500)
  assert.equal((await app.inject('/pending/fails')).statusCode, 500)
})

// A reply with just what sending a file touches.
function fakeReply () {
  const headers: Record<string, string> = {}
  return {
    headers,
    raw: { headersSent: false },
    hasHeader: (name: string) => name in headers,
    header (name: string, value: string) { headers[name] = value; return this },
    removeHeader (name: string) { delete headers[name]; return this }
  }
}

test('a stream that fails before sending anything reaches the exception filters', async (t) => {
  @Catch()
  class StreamFilter implements ExceptionFilter {
    catch (error: Error, host: ArgumentsHost) {
      host.switchToHttp().getResponse<Response>().code(503).send({ failed: error.message })
    }
  }
  @Controller('broken')
  class BrokenController {
    @Get('filtered') @UseFilters(StreamFilter) filtered () { return new StreamableFile(new Readable({ read () { this.destroy(new Error('disk gone')) } })) }
    @Get() plain () { return new StreamableFile(new Readable({ read () { this.destroy(new Error('disk gone')) } }), { disposition: 'attachment; filename="x.bin"', length: 10 }) }
  }
  @Module({ controllers: [BrokenController] })
  class BrokenModule {}
  const app = await build(t, BrokenModule)

  const filtered = await app.inject('/broken/filtered')
  assert.equal(filtered.statusCode, 503)
  assert.deepEqual(filtered.json(), { failed: 'disk gone' })
  const plain = await app.inject('/broken')
  assert.equal(plain.statusCode, 500)
  assert.deepEqual(plain.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(plain.headers['content-disposition'], undefined, 'the error is not offered as the file')
  assert.match(String(plain.headers['content-type']), /^application\/json/)
})

test('a stream that fails after its first bytes ends the connection: the truncated file never looks complete', async (t) => {
  @Controller('truncated')
  class TruncatedController {
    @Get() file () {
      let started = false
      const source = new Readable({
        read () {
          if (started) return
          started = true
          this.push('first bytes')
          setTimeout(() => this.destroy(new Error('disk gone')), 20)
        }
      })
      return new StreamableFile(source, { length: 100 })
    }
  }
  @Module({ controllers: [TruncatedController] })
  class TruncatedModule {}
  const app = await build(t, TruncatedModule)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get({ host: '127.0.0.1', port, path: '/truncated', agent: false }, resolve).on('error', reject))
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-length'], '100')
  let received = ''
  res.on('data', (chunk) => { received += chunk })
  const [error] = await once(res, 'error')
  assert.equal((error as Error & { code?: string }).code, 'ECONNRESET')
  assert.equal(received, 'first bytes')
})

test('StreamableFile: headers and stream as NestJS gives them; anything but bytes or a stream is refused', () => {
  const stream = Readable.from(['x'])
  const file = new StreamableFile(stream)
  assert.equal(file.getStream(), stream)
  assert.deepEqual(file.getHeaders(), { type: 'application/octet-stream', disposition: undefined, length: undefined })
  const options = { type: 'text/plain' }
  const bytes = new StreamableFile(Buffer.from('abc'), options)
  assert.deepEqual(bytes.getHeaders(), { type: 'text/plain', disposition: undefined, length: 3 })
  assert.deepEqual(options, { type: 'text/plain' }, 'the caller\'s options are not changed')
  assert.throws(() => new StreamableFile('text' as any), { name: 'TypeError', message: 'new StreamableFile() takes a Buffer, a Uint8Array or a readable stream, given string.' })
  assert.throws(() => new StreamableFile(null as any), { message: /given null/ })
})
