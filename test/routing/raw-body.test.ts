import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import {
  decoratorPlugin, Module, Controller, Get, Post, Body, RawBody, Req, Res, UseFilters, Catch,
  type ArgumentsHost, type ExceptionFilter, type PipeTransform, type Request, type Response
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

type RawRequest = Request & { rawBody?: Buffer }

@Controller('hooks')
class WebhookController {
  @Post('raw')
  raw (@RawBody() raw: Buffer, @Body() body: unknown) {
    return { isBuffer: Buffer.isBuffer(raw), raw: raw?.toString('latin1'), body }
  }

  @Post('parsed')
  parsed (@Body() body: unknown, @Req() req: RawRequest) {
    return { body, rawBody: req.rawBody === undefined ? 'none' : 'set' }
  }

  @Get('raw')
  get (@RawBody() raw: Buffer | undefined) {
    return { raw: raw === undefined ? 'none' : 'set' }
  }
}

@Controller('other')
class OtherController {
  @Post()
  post (@Body() body: unknown) { return { body } }
}

@Module({ controllers: [WebhookController, OtherController] })
class AppModule {}

const json = (payload: string) => ({ method: 'POST' as const, headers: { 'content-type': 'application/json' }, payload })

test('@RawBody() gives the exact bytes as a Buffer while @Body() gives the parsed body', async (t) => {
  const app = await build(t, AppModule)
  const payload = '{ "a" :1,\n "é": [true] }'
  const res = await app.inject({ ...json(payload), url: '/hooks/raw' })
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), { isBuffer: true, raw: Buffer.from(payload).toString('latin1'), body: { a: 1, é: [true] } })
})

test('@RawBody() keeps text/plain bytes; the body is the decoded string', async (t) => {
  const app = await build(t, AppModule)
  const res = await app.inject({ method: 'POST', url: '/hooks/raw', headers: { 'content-type': 'text/plain; charset=utf-8' }, payload: 'sig=ä' })
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), { isBuffer: true, raw: Buffer.from('sig=ä').toString('latin1'), body: 'sig=ä' })
})

test('@RawBody() is undefined when the request has no body', async (t) => {
  const app = await build(t, AppModule)
  const res = await app.inject('/hooks/raw')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { raw: 'none' })
})

test('malformed and empty JSON on a raw-body route get the same 400 as on a plain Fastify route', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.post('/plain', async (req) => req.body))
  for (const payload of ['{"a":', '']) {
    const plain = await app.inject({ ...json(payload), url: '/plain' })
    const raw = await app.inject({ ...json(payload), url: '/hooks/raw' })
    assert.equal(plain.statusCode, 400)
    assert.equal(raw.statusCode, 400)
    assert.deepEqual(raw.json(), plain.json())
  }
  const raw = await app.inject({ ...json('{"a":'), url: '/hooks/raw' })
  assert.deepEqual(raw.json(), {
    statusCode: 400,
    code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    error: 'Bad Request',
    message: "Body is not valid JSON but content-type is set to 'application/json'"
  })
  assert.equal((await app.inject({ ...json('{"ok":true}'), url: '/hooks/raw' })).statusCode, 201)
})

test('raw-body routes honour the app bodyLimit (413) and its prototype-poisoning setting', async (t) => {
  const app = Fastify({ bodyLimit: 32, onProtoPoisoning: 'remove' })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AppModule })
  const big = await app.inject({ ...json(JSON.stringify({ text: 'x'.repeat(64) })), url: '/hooks/raw' })
  assert.equal(big.statusCode, 413)
  assert.deepEqual(big.json(), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large', message: 'Request body is too large' })
  const poisoned = await app.inject({ ...json('{"__proto__":{"x":1},"a":1}'), url: '/hooks/raw' })
  assert.equal(poisoned.statusCode, 201)
  assert.deepEqual(poisoned.json().body, { a: 1 })
})

test('prototype poisoning is rejected on raw-body routes as Fastify does by default', async (t) => {
  const app = await build(t, AppModule)
  const res = await app.inject({ ...json('{"__proto__":{"x":1}}'), url: '/hooks/raw' })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().code, 'FST_ERR_CTP_INVALID_JSON_BODY')
})

test('every other route keeps the app\'s own parser: the raw parser stays in its child context', async (t) => {
  // The app replaces Fastify's JSON parser with one that marks the body; only raw-body routes differ.
  const app = await build(t, AppModule, {}, (app) => {
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => done(null, { marked: JSON.parse(body as string) }))
    app.post('/plain', async (req) => ({ body: req.body, rawBody: (req as RawRequest).rawBody === undefined ? 'none' : 'set' }))
  })
  const payload = '{"a":1}'
  assert.deepEqual((await app.inject({ ...json(payload), url: '/plain' })).json(), { body: { marked: { a: 1 } }, rawBody: 'none' })
  assert.deepEqual((await app.inject({ ...json(payload), url: '/hooks/parsed' })).json(), { body: { marked: { a: 1 } }, rawBody: 'none' })
  assert.deepEqual((await app.inject({ ...json(payload), url: '/other' })).json(), { body: { marked: { a: 1 } } })
  assert.deepEqual((await app.inject({ ...json(payload), url: '/hooks/raw' })).json(), { isBuffer: true, raw: payload, body: { a: 1 } })
})

test('pipes see the raw Buffer and controller filters cover raw-body routes', async (t) => {
  class Hex implements PipeTransform { transform (value: Buffer) { return value.toString('hex') } }
  @Catch()
  class Filter implements ExceptionFilter {
    catch (error: Error, host: ArgumentsHost) { host.switchToHttp().getResponse<any>().code(418).send({ caught: error.message }) }
  }
  @Controller('sig')
  @UseFilters(Filter)
  class SigController {
    @Post() hex (@RawBody(Hex) hex: string) { return { hex } }
    @Post('fail') fail (@RawBody() raw: Buffer) { throw new Error(`bad ${raw.length}`) }
  }
  @Module({ controllers: [SigController] })
  class SigModule {}
  const app = await build(t, SigModule)
  assert.deepEqual((await app.inject({ ...json('{}'), url: '/sig' })).json(), { hex: '7b7d' })
  const failed = await app.inject({ ...json('{}'), url: '/sig/fail' })
  assert.equal(failed.statusCode, 418)
  assert.deepEqual(failed.json(), { caught: 'bad 2' })
})

test('a handler taking @Res() beside a piped @RawBody() is called and answers', async (t) => {
  class Length implements PipeTransform { transform (value: Buffer) { return value.length } }
  @Controller('manual')
  class ManualController {
    @Post() post (@RawBody(Length) length: number, @Res() reply: Response) { reply.code(200).send({ length }) }
  }
  @Module({ controllers: [ManualController] })
  class ManualModule {}
  const app = await build(t, ManualModule)
  const res = await app.inject({ ...json('{"a":1}'), url: '/manual' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { length: 7 })
})

@Controller('echo')
class EchoController {
  @Post() echo (@Body() body: unknown, @Req() req: RawRequest) {
    return { body: { ...(body as object) }, raw: req.rawBody?.toString('utf8') ?? null }
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

const form = (payload: string) => ({ method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload })

test('the rawBody option keeps the bytes of every controller route\'s JSON, text and form bodies, parsed once', async (t) => {
  const app = await build(t, EchoModule, { rawBody: true }, (app) => {
    app.post('/plain', async (request) => ({ rawBody: (request as RawRequest).rawBody === undefined ? 'none' : 'set' }))
  })
  assert.deepEqual((await app.inject({ ...json('{"a": 1}'), url: '/echo' })).json(), { body: { a: 1 }, raw: '{"a": 1}' })
  assert.deepEqual((await app.inject({ ...form('a=1&b=x%20y&a=2'), url: '/echo' })).json(), { body: { a: ['1', '2'], b: 'x y' }, raw: 'a=1&b=x%20y&a=2' })
  // A form's "__proto__" key is refused as a JSON body's is.
  const poisoned = await app.inject({ ...form('__proto__=1'), url: '/echo' })
  assert.equal(poisoned.statusCode, 400)
  assert.deepEqual(poisoned.json(), { statusCode: 400, message: 'Object contains forbidden prototype property', error: 'Bad Request' })
  // The app's own routes keep Fastify's parsers: no rawBody, and no form parser.
  assert.deepEqual((await app.inject({ ...json('{}'), url: '/plain' })).json(), { rawBody: 'none' })
  assert.equal((await app.inject({ ...form('a=1'), url: '/plain' })).statusCode, 415)
})

test('with the rawBody option, a body over the limit gets Fastify\'s 413 and the server keeps serving', async (t) => {
  const app = Fastify({ bodyLimit: 16 })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: EchoModule, rawBody: true })
  const tooLarge = await app.inject({ ...json(JSON.stringify({ text: 'x'.repeat(32) })), url: '/echo' })
  assert.equal(tooLarge.statusCode, 413)
  assert.equal(tooLarge.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  assert.equal((await app.inject({ ...form('a=1'.padEnd(20, '1')), url: '/echo' })).statusCode, 413)
  assert.deepEqual((await app.inject({ ...json('{"a":1}'), url: '/echo' })).json(), { body: { a: 1 }, raw: '{"a":1}' })
})

test('with the rawBody option, a form parser the app registered is kept', async (t) => {
  const app = await build(t, EchoModule, { rawBody: true }, (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => done(null, { own: body }))
  })
  assert.deepEqual((await app.inject({ ...form('a=1'), url: '/echo' })).json(), { body: { own: 'a=1' }, raw: null })
})

test('the rawBody option must be a boolean', async () => {
  await assert.rejects(async () => {
    const app = Fastify()
    await app.register(decoratorPlugin, { module: EchoModule, rawBody: 'yes' as any })
  }, { code: 'FDP_ERR_INVALID_OPTIONS', message: 'decoratorPlugin option "rawBody" must be true or false, given string "yes".' })
})

test('with the rawBody option, a form\'s "__proto__" key follows the app\'s onProtoPoisoning', async (t) => {
  for (const [onProtoPoisoning, expected] of [['remove', { a: '1' }], ['ignore', { a: '1', ['__proto__']: '2' }]] as const) {
    const app = Fastify({ onProtoPoisoning })
    t.after(() => app.close())
    await app.register(decoratorPlugin, { module: EchoModule, rawBody: true })
    const res = await app.inject({ ...form('a=1&__proto__=2'), url: '/echo' })
    assert.equal(res.statusCode, 201)
    assert.deepEqual(res.json().body, expected)
  }
})
