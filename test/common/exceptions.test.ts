import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import * as api from '../../plugin/index.js'
import {
  decoratorPlugin, Module, Controller, Get, Post, Body, Param, Query, HttpException, NotFoundException, ForbiddenException, BadRequestException,
  Catch, UseFilters, ParseIntPipe, type ArgumentsHost, type Response
} from '../../plugin/index.js'

const subclasses: Array<[string, number, string]> = [
  ['BadRequestException', 400, 'Bad Request'],
  ['UnauthorizedException', 401, 'Unauthorized'],
  ['ForbiddenException', 403, 'Forbidden'],
  ['NotFoundException', 404, 'Not Found'],
  ['MethodNotAllowedException', 405, 'Method Not Allowed'],
  ['NotAcceptableException', 406, 'Not Acceptable'],
  ['RequestTimeoutException', 408, 'Request Timeout'],
  ['ConflictException', 409, 'Conflict'],
  ['GoneException', 410, 'Gone'],
  ['PreconditionFailedException', 412, 'Precondition Failed'],
  ['PayloadTooLargeException', 413, 'Payload Too Large'],
  ['UnsupportedMediaTypeException', 415, 'Unsupported Media Type'],
  ['ImATeapotException', 418, "I'm a teapot"],
  ['MisdirectedException', 421, 'Misdirected Request'],
  ['UnprocessableEntityException', 422, 'Unprocessable Entity'],
  ['TooManyRequestsException', 429, 'Too Many Requests'],
  ['InternalServerErrorException', 500, 'Internal Server Error'],
  ['NotImplementedException', 501, 'Not Implemented'],
  ['BadGatewayException', 502, 'Bad Gateway'],
  ['ServiceUnavailableException', 503, 'Service Unavailable'],
  ['GatewayTimeoutException', 504, 'Gateway Timeout'],
  ['HttpVersionNotSupportedException', 505, 'HTTP Version Not Supported']
]

type Thrower = (kind: string) => unknown
let thrower: Thrower = () => undefined

@Controller('throw')
class Throwing {
  @Get(':kind') sync (@Param('kind') kind: string) { return thrower(kind) }
  @Get('async/:kind') async later (@Param('kind') kind: string) {
    await new Promise((resolve) => setImmediate(resolve))
    return thrower(kind)
  }

  @Post('echo') echo (@Body() body: unknown) { return body }
}

@Module({ controllers: [Throwing] })
class AppModule {}

/** An app whose log lines are collected as parsed JSON objects. */
async function logged (t: { after (fn: () => unknown): void }, options: Record<string, unknown> = {}, plugin = true): Promise<{ app: FastifyInstance, lines: any[] }> {
  const lines: any[] = []
  const stream = new Writable({ write (chunk, encoding, done) { lines.push(JSON.parse(String(chunk))); done() } })
  const app = Fastify({ logger: { level: 'info', stream }, ...options })
  t.after(() => app.close())
  app.post('/plain/echo', async (req) => req.body)
  if (plugin) await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  return { app, lines }
}

test('every built-in exception has its status and a { statusCode, message, error } body', async (t) => {
  const { app } = await logged(t)
  for (const [name, status, reason] of subclasses) {
    const Cls = (api as unknown as Record<string, new (...args: any[]) => HttpException>)[name]
    assert.equal(typeof Cls, 'function', name)
    assert.equal(Cls.name, name)

    thrower = () => { throw new Cls() }
    const bare = await app.inject('/throw/x')
    assert.equal(bare.statusCode, status, name)
    assert.equal(bare.body, JSON.stringify({ statusCode: status, message: reason, error: reason }), name)

    thrower = () => { throw new Cls('custom message') }
    const custom = await app.inject('/throw/async/x')
    assert.equal(custom.statusCode, status, name)
    assert.deepEqual(custom.json(), { statusCode: status, message: 'custom message', error: reason }, name)

    const exception = new Cls('m')
    assert.ok(exception instanceof HttpException)
    assert.ok(exception instanceof Error)
    assert.equal(exception.getStatus(), status)
    assert.equal(exception.name, name)
  }
})

test('HttpException: string, array and object responses, description, cause', async (t) => {
  const { app } = await logged(t)
  const root = new Error('root cause')
  const cases: Array<[() => never, number, unknown]> = [
    [() => { throw new HttpException('plain string', 400) }, 400, { statusCode: 400, message: 'plain string', error: 'Bad Request' }],
    [() => { throw new HttpException({ custom: 1, nested: { ok: true } }, 422) }, 422, { custom: 1, nested: { ok: true } }],
    [() => { throw new HttpException('odd status', 499) }, 499, { statusCode: 499, message: 'odd status', error: 'Error' }],
    [() => { throw new NotFoundException({ why: 'x' }) }, 404, { why: 'x' }],
    [() => { throw new NotFoundException('m', 'Custom Desc') }, 404, { statusCode: 404, message: 'm', error: 'Custom Desc' }],
    [() => { throw new BadRequestException(['a must be a string', 'b is required']) }, 400, { statusCode: 400, message: ['a must be a string', 'b is required'], error: 'Bad Request' }],
    [() => { throw new ForbiddenException('no', { cause: root, description: 'D' }) }, 403, { statusCode: 403, message: 'no', error: 'D' }],
    [() => { throw new HttpException('with cause', 409, { cause: root }) }, 409, { statusCode: 409, message: 'with cause', error: 'Conflict' }]
  ]
  for (const [throwIt, status, body] of cases) {
    thrower = throwIt
    const res = await app.inject('/throw/x')
    assert.equal(res.statusCode, status)
    assert.deepEqual(res.json(), body)
  }

  const withCause = new ForbiddenException('no', { cause: root })
  assert.equal(withCause.cause, root)
  assert.equal(new HttpException('x', 409, { cause: root }).cause, root)
  assert.equal(new HttpException('x', 409).cause, undefined)
  assert.equal(withCause.message, 'no')
  assert.deepEqual(new NotFoundException({ why: 'x' }).getResponse(), { why: 'x' })
  assert.equal(new NotFoundException({ message: 'inside' }).message, 'inside')
  assert.equal(new HttpException({ a: 1 }, 400).message, 'Http Exception')
})

test('built-in exceptions hold their generated body as response; HttpException keeps what it was given', () => {
  assert.deepEqual(new NotFoundException('nope').getResponse(), { statusCode: 404, message: 'nope', error: 'Not Found' })
  assert.deepEqual(new NotFoundException().getResponse(), { statusCode: 404, message: 'Not Found', error: 'Not Found' })
  assert.deepEqual(new NotFoundException('m', 'Custom Desc').getResponse(), { statusCode: 404, message: 'm', error: 'Custom Desc' })
  assert.deepEqual(new BadRequestException(['a', 'b']).getResponse(), { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' })
  assert.deepEqual(new ForbiddenException('no', { description: 'D' }).getResponse(), { statusCode: 403, message: 'no', error: 'D' })
  assert.deepEqual(new api.ImATeapotException().getResponse(), { statusCode: 418, message: "I'm a teapot", error: "I'm a teapot" })
  assert.equal(new HttpException('nope', 404).getResponse(), 'nope')
  assert.deepEqual(new HttpException(['a'], 400).getResponse(), ['a'])
  // message is unchanged: the string, else the class name in words
  assert.equal(new NotFoundException('nope').message, 'nope')
  assert.equal(new NotFoundException().message, 'Not Found')
  assert.equal(new BadRequestException(['a', 'b']).message, 'Bad Request Exception')
})

test('a filter that sends exception.getResponse() sends the built-in exception\'s body object', async (t) => {
  @Catch(HttpException)
  class ResponseFilter {
    catch (exception: HttpException, host: ArgumentsHost) {
      host.switchToHttp().getResponse<Response>().code(exception.getStatus()).send(exception.getResponse())
    }
  }
  @Controller('filtered')
  @UseFilters(ResponseFilter)
  class Filtered {
    @Get('builtin') builtin () { throw new NotFoundException('nope') }
    @Get('base') base () { throw new HttpException('nope', 404) }
    @Get('pipe') pipe (@Query('n', ParseIntPipe) n: number) { return n }
  }
  @Module({ controllers: [Filtered] })
  class FilteredModule {}
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: FilteredModule })
  const builtin = await app.inject('/filtered/builtin')
  assert.equal(builtin.statusCode, 404)
  assert.deepEqual(builtin.json(), { statusCode: 404, message: 'nope', error: 'Not Found' })
  const base = await app.inject('/filtered/base')
  assert.equal(base.statusCode, 404)
  assert.equal(base.body, 'nope')
  const pipe = await app.inject('/filtered/pipe?n=x')
  assert.equal(pipe.statusCode, 400)
  assert.deepEqual(pipe.json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', error: 'Bad Request' })
})

test('anything else thrown is a 500 logged once with the request id; the server keeps serving', async (t) => {
  const { app, lines } = await logged(t)
  const thrown: Array<[string, () => unknown]> = [
    ['error', () => { throw new TypeError('secret detail') }],
    ['string', () => { throw 'a string' }], // eslint-disable-line no-throw-literal
    ['number', () => { throw 42 }], // eslint-disable-line no-throw-literal
    ['rejection', () => Promise.reject(new Error('async secret'))],
    ['null', () => { throw null }] // eslint-disable-line no-throw-literal
  ]
  for (const [label, throwIt] of thrown) {
    for (const url of ['/throw/x', '/throw/async/x']) {
      lines.length = 0
      thrower = throwIt
      const res = await app.inject({ url, headers: { 'request-id': 'ignored' } })
      assert.equal(res.statusCode, 500, label)
      assert.equal(res.body, '{"statusCode":500,"message":"Internal server error"}', label)
      const errors = lines.filter((line) => line.level >= 50)
      assert.equal(errors.length, 1, `${label} ${url}: ${JSON.stringify(lines)}`)
      const completed = lines.find((line) => line.msg === 'request completed')
      assert.equal(errors[0].reqId, completed.reqId, label)
      assert.ok(errors[0].err, label)
    }
  }
  const detail = lines.find((line) => line.level >= 50)
  assert.match(detail.err.message, /null/)
  thrower = (kind) => ({ ok: kind })
  assert.deepEqual((await app.inject('/throw/fine')).json(), { ok: 'fine' })
})

test('an Error carrying a 4xx/5xx statusCode keeps Fastify\'s format, as on a plain route', async (t) => {
  const { app } = await logged(t)
  const bare = Fastify()
  t.after(() => bare.close())
  const makeError = () => Object.assign(new Error('teapot said no'), { statusCode: 418, code: 'E_TEAPOT' })
  bare.get('/throw/x', async () => { throw makeError() })
  thrower = () => { throw makeError() }
  const expected = await bare.inject('/throw/x')
  const res = await app.inject('/throw/x')
  assert.equal(res.statusCode, 418)
  assert.equal(res.body, expected.body)
  assert.deepEqual(res.json(), { statusCode: 418, code: 'E_TEAPOT', error: "I'm a Teapot", message: 'teapot said no' })
})

test('Fastify\'s own errors keep Fastify\'s format on decorated routes', async (t) => {
  const { app } = await logged(t, { bodyLimit: 64 })
  const requests = [
    { method: 'POST' as const, url: '/throw/echo', payload: '{"bad json', headers: { 'content-type': 'application/json' } },
    { method: 'POST' as const, url: '/throw/echo', payload: JSON.stringify({ big: 'x'.repeat(200) }), headers: { 'content-type': 'application/json' } },
    { method: 'POST' as const, url: '/throw/echo', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { method: 'POST' as const, url: '/throw/echo', payload: '', headers: { 'content-type': 'application/json' } }
  ]
  const statuses = []
  for (const request of requests) {
    // The same request to a plain route of the same app is the reference.
    const plain = await app.inject({ ...request, url: '/plain/echo' })
    const decorated = await app.inject(request)
    statuses.push(decorated.statusCode)
    assert.equal(decorated.statusCode, plain.statusCode)
    assert.deepEqual(decorated.json(), plain.json())
    assert.ok(typeof decorated.json().code === 'string' && decorated.json().code.startsWith('FST_ERR_'), decorated.body)
  }
  assert.deepEqual(statuses, [400, 413, 415, 400])

  const missing = await app.inject('/throw')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { message: 'Route GET:/throw not found', error: 'Not Found', statusCode: 404 })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/throw/echo', payload: { ok: 1 } })).json(), { ok: 1 })
})
