// NestJS's body options on the testing application: `rawBody: true` and `useBodyParser()`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Body, Controller, Module, Post, Req, type Request } from '../../plugin/index.js'
import { FastifyAdapter } from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'

type RawRequest = Request & { rawBody?: Buffer }

@Controller('echo')
class EchoController {
  @Post() echo (@Body() body: unknown, @Req() req: RawRequest) {
    return { body: Buffer.isBuffer(body) ? `buffer:${body.toString('utf8')}` : body, raw: req.rawBody?.toString('utf8') ?? null }
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

async function application (options?: { rawBody?: boolean }, adapter = new FastifyAdapter()) {
  const moduleRef = await Test.createTestingModule({ imports: [EchoModule] }).compile()
  return moduleRef.createNestApplication(adapter, options)
}

const post = (type: string, payload: string) => ({ method: 'POST' as const, url: '/echo', headers: { 'content-type': type }, payload })

test('createNestApplication(adapter, { rawBody: true }) gives req.rawBody for JSON and form bodies', async (t) => {
  const app = await application({ rawBody: true })
  t.after(() => app.close())
  await app.init()
  assert.deepEqual((await app.inject(post('application/json', '{ "a": 1 }'))).json(), { body: { a: 1 }, raw: '{ "a": 1 }' })
  assert.deepEqual((await app.inject(post('application/x-www-form-urlencoded', 'name=Tom&age=3'))).json(), { body: { name: 'Tom', age: '3' }, raw: 'name=Tom&age=3' })
  // As NestJS: JSON and forms only.
  assert.deepEqual((await app.inject(post('text/plain', 'hello'))).json(), { body: 'hello', raw: null })
})

test('useBodyParser(type, { bodyLimit }) sets that type\'s limit (413 above it); rawBody follows the application option', async (t) => {
  const app = await application({ rawBody: true })
  t.after(() => app.close())
  app.useBodyParser('application/json', { bodyLimit: 12 })
  await app.init()
  assert.deepEqual((await app.inject(post('application/json', '{"a":1}'))).json(), { body: { a: 1 }, raw: '{"a":1}' })
  const tooLarge = await app.inject(post('application/json', '{"a":"0123456789"}'))
  assert.equal(tooLarge.statusCode, 413)
  // Other types keep the adapter's limit; the server keeps serving.
  assert.equal((await app.inject(post('application/x-www-form-urlencoded', `a=${'1'.repeat(100)}`))).statusCode, 201)
  assert.equal((await app.inject(post('application/json', '{}'))).statusCode, 201)
})

test('useBodyParser() without rawBody: the parsed body only; another type gets its Buffer, or the given parser\'s value', async (t) => {
  const app = await application()
  t.after(() => app.close())
  app.useBodyParser(['application/json', 'application/xml'])
  app.useBodyParser('text/csv', {}, async (request, body) => body.toString('utf8').split(','))
  app.useBodyParser(/^application\/vnd\.fail/, {}, (request, body, done) => done(new Error('unreadable')))
  await app.init()
  assert.deepEqual((await app.inject(post('application/json', '{"a":1}'))).json(), { body: { a: 1 }, raw: null })
  assert.deepEqual((await app.inject(post('application/xml', '<a/>'))).json(), { body: 'buffer:<a/>', raw: null })
  assert.deepEqual((await app.inject(post('text/csv', 'a,b,c'))).json(), { body: ['a', 'b', 'c'], raw: null })
  assert.equal((await app.inject(post('application/vnd.fail+json', '{}'))).statusCode, 500)
  // Forms still have no parser unless one is added (Fastify's 415).
  assert.equal((await app.inject(post('application/x-www-form-urlencoded', 'a=1'))).statusCode, 415)
})

test('useBodyParser() refuses what it cannot use, and calls after init()', async (t) => {
  const app = await application()
  t.after(() => app.close())
  assert.throws(() => app.useBodyParser(42 as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /takes a content type \(a string, a list of them or a RegExp\), given number 42/ })
  assert.throws(() => app.useBodyParser([]), { code: 'FDP_ERR_INVALID_OPTIONS' })
  assert.throws(() => app.useBodyParser('application/json', { bodyLimit: -1 }), { code: 'FDP_ERR_INVALID_OPTIONS', message: /a positive integer of bytes/ })
  assert.throws(() => app.useBodyParser('application/json', {}, 'parse' as any), { code: 'FDP_ERR_INVALID_OPTIONS', message: /parser is a function/ })
  await app.init()
  assert.throws(() => app.useBodyParser('application/json'), { code: 'FDP_ERR_INVALID_OPTIONS', message: /useBodyParser\(\) was called after init\(\)/ })
})
