import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { IsOptional, IsString } from 'class-validator'
import type { FastifyInstance } from 'fastify'
import { Body, Controller, Get, Module, Param, Post, Query, Redirect, Res, UsePipes, ValidationPipe, Headers } from '../../plugin/index.js'
import { buildApp, captureLogs, listen, request } from './helpers.js'

class CreateCat {
  @IsString() name!: string
  @IsOptional() extra?: unknown
}

class CatQuery {
  @IsOptional() @IsString() name?: string
}

// tsx emits no design types: the DTO types are declared by hand, as tsc would.
const paramTypes = (...types: Function[]) => Reflect.metadata('design:paramtypes', types)

function describeDto (value: unknown) {
  return {
    isDto: value instanceof CreateCat || value instanceof CatQuery,
    ownKeys: Object.getOwnPropertyNames(value).sort()
  }
}

@Controller()
class InputController {
  @Post('echo') echo (@Body() body: unknown) { return { body: body ?? null } }
  @Post('depth') depth (@Body() body: unknown) {
    let depth = 0
    for (let node: any = body; node !== null && typeof node === 'object'; node = Array.isArray(node) ? node[0] : node.a) depth++
    return { depth }
  }

  @Post('raw') raw (@Body() body: unknown) { return body }
  @Post('dto') @UsePipes(new ValidationPipe({ transform: true })) @paramTypes(CreateCat)
  dto (@Body() body: CreateCat) { return describeDto(body) }

  @Post('dto-plain') @UsePipes(new ValidationPipe()) @paramTypes(CreateCat)
  dtoPlain (@Body() body: CreateCat) { return { isPlain: Object.getPrototypeOf(body) === Object.prototype, ownKeys: Object.keys(body).sort() } }

  @Get('query') @UsePipes(new ValidationPipe({ transform: true })) @paramTypes(CatQuery)
  query (@Query() query: CatQuery) { return describeDto(query) }

  @Get('query-plain') queryPlain (@Query() query: Record<string, unknown>) { return { keys: Object.keys(query).sort() } }
  @Get('p/:id') param (@Param('id') id: string, @Query('v') v?: string, @Headers('x-long') long?: string) {
    return { id: id.length, v: v?.length ?? 0, header: long?.length ?? 0 }
  }

  @Get('go') @Redirect('/home') go (@Query('to') to: string) { return { url: to } }
  @Get('header') header (@Query('v') v: string, @Res({ passthrough: true }) res: any) {
    res.header('x-echo', v)
    return { ok: true }
  }

  @Get('ok') ok () { return { ok: true } }
}

@Module({ controllers: [InputController] })
class InputModule {}

const json = { 'content-type': 'application/json' }

async function servesNext (app: FastifyInstance): Promise<void> {
  const next = await app.inject('/ok')
  assert.equal(next.statusCode, 200)
  assert.deepEqual(next.json(), { ok: true })
}

function prototypesUntouched (): void {
  assert.equal(({} as any).polluted, undefined)
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((key) => key === 'polluted' || key === 'name'), [])
  assert.equal((CreateCat.prototype as any).polluted, undefined)
  assert.equal(Object.getPrototypeOf(CreateCat.prototype), Object.prototype)
  assert.equal(CreateCat.prototype.constructor, CreateCat)
}

test('malformed JSON gets Fastify\'s 400 and the next request is served', async (t) => {
  const app = await buildApp(t, InputModule)
  const res = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: '{"name":' })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), {
    statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', error: 'Bad Request', message: 'Body is not valid JSON but content-type is set to \'application/json\''
  })
  await servesNext(app)
})

test('an unsupported content type gets 415', async (t) => {
  const app = await buildApp(t, InputModule)
  const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/xml' }, payload: '<cat/>' })
  assert.equal(res.statusCode, 415)
  assert.deepEqual(res.json(), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: 'Unsupported Media Type' })
  await servesNext(app)
})

test('an empty body: 400 when it claims JSON, undefined for @Body() when absent, 400 from a DTO', async (t) => {
  const app = await buildApp(t, InputModule)
  const empty = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: '' })
  assert.equal(empty.statusCode, 400)
  assert.equal(empty.json().code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
  const absent = await app.inject({ method: 'POST', url: '/echo' })
  assert.equal(absent.statusCode, 201)
  assert.deepEqual(absent.json(), { body: null })
  const dto = await app.inject({ method: 'POST', url: '/dto' })
  assert.equal(dto.statusCode, 400)
  assert.deepEqual(dto.json(), { statusCode: 400, message: ['name must be a string'], error: 'Bad Request' })
  await servesNext(app)
})

test('a body over bodyLimit gets 413 before any handler runs', async (t) => {
  const app = await buildApp(t, InputModule, { bodyLimit: 1024 })
  for (const url of ['/echo', '/dto']) {
    const res = await app.inject({ method: 'POST', url, headers: json, payload: JSON.stringify({ name: 'x'.repeat(2000) }) })
    assert.equal(res.statusCode, 413)
    assert.deepEqual(res.json(), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large', message: 'Request body is too large' })
  }
  await servesNext(app)
})

test('deeply nested JSON: parsed for the handler, 400 from ValidationPipe, a clean 500 when echoed back', async (t) => {
  const logs = captureLogs()
  const app = await buildApp(t, InputModule, { logger: { stream: logs.stream } })
  const depth = 100_000
  const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

  const measured = await app.inject({ method: 'POST', url: '/depth', headers: json, payload: deep })
  assert.equal(measured.statusCode, 201)
  assert.deepEqual(measured.json(), { depth })

  // class-transformer recurses once per level: too deep for the stack is the client's fault.
  const dto = await app.inject({ method: 'POST', url: '/dto', headers: json, payload: `{"name":"Tom","extra":${deep}}` })
  assert.equal(dto.statusCode, 400)
  assert.deepEqual(dto.json(), { statusCode: 400, message: 'Request data is nested too deeply', error: 'Bad Request' })

  // Serializing it back overflows JSON.stringify: the handler's choice, so a server error.
  const echoed = await app.inject({ method: 'POST', url: '/raw', headers: json, payload: deep })
  assert.equal(echoed.statusCode, 500)
  assert.deepEqual(echoed.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(logs.errors().length, 1)
  assert.equal(logs.errors()[0].err?.type, 'RangeError')
  await servesNext(app)
})

test('very long URLs and header values: 414 for a path parameter, 431 from Node past its header limit', async (t) => {
  const app = await buildApp(t, InputModule)
  const port = await listen(app)

  const longParam = await request(port, `/p/${'x'.repeat(101)}`)
  assert.equal(longParam.status, 414)
  assert.equal(JSON.parse(longParam.body).code, 'FST_ERR_MAX_PARAM_LENGTH')

  const withinLimits = await request(port, `/p/${'x'.repeat(100)}?v=${'v'.repeat(8000)}`, { headers: { 'x-long': 'h'.repeat(8000) } })
  assert.equal(withinLimits.status, 200)
  assert.deepEqual(JSON.parse(withinLimits.body), { id: 100, v: 8000, header: 8000 })

  const longUrl = await request(port, `/p/1?v=${'v'.repeat(20_000)}`)
  assert.equal(longUrl.status, 431)
  const longHeader = await request(port, '/p/1', { headers: { 'x-long': 'h'.repeat(20_000) } })
  assert.equal(longHeader.status, 431)

  const next = await request(port, '/ok')
  assert.equal(next.status, 200)
  assert.deepEqual(JSON.parse(next.body), { ok: true })
})

test('__proto__, constructor and prototype keys are rejected by Fastify\'s JSON parser by default', async (t) => {
  const app = await buildApp(t, InputModule)
  for (const url of ['/echo', '/dto', '/dto-plain']) {
    for (const payload of ['{"name":"a","__proto__":{"polluted":true}}', '{"name":"a","constructor":{"prototype":{"polluted":true}}}']) {
      const res = await app.inject({ method: 'POST', url, headers: json, payload })
      assert.equal(res.statusCode, 400, `${url} ${payload}`)
      assert.equal(res.json().code, 'FST_ERR_CTP_INVALID_JSON_BODY')
    }
  }
  prototypesUntouched()
  await servesNext(app)
})

test('__proto__, constructor and prototype keys let through by the app never reach Object.prototype or the DTO\'s', async (t) => {
  const app = await buildApp(t, InputModule, { onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' })
  const payload = '{"name":"Tom","__proto__":{"polluted":true,"name":5},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}'

  const plain = await app.inject({ method: 'POST', url: '/echo', headers: json, payload })
  assert.equal(plain.statusCode, 201)
  // JSON.parse makes __proto__ an own key of the body; it stays data.
  assert.deepEqual(Object.keys(JSON.parse(plain.body).body).sort(), ['__proto__', 'constructor', 'name', 'prototype'])
  prototypesUntouched()

  const transformed = await app.inject({ method: 'POST', url: '/dto', headers: json, payload })
  assert.equal(transformed.statusCode, 201)
  assert.deepEqual(transformed.json(), { isDto: true, ownKeys: ['extra', 'name', 'prototype'] })
  prototypesUntouched()

  const validated = await app.inject({ method: 'POST', url: '/dto-plain', headers: json, payload })
  assert.equal(validated.statusCode, 201)
  assert.deepEqual(validated.json(), { isPlain: true, ownKeys: ['__proto__', 'constructor', 'name', 'prototype'] })
  prototypesUntouched()
  await servesNext(app)
})

test('__proto__, constructor and prototype keys in a query string stay plain keys, with and without ValidationPipe', async (t) => {
  const app = await buildApp(t, InputModule)
  const url = '?__proto__=x&__proto__[polluted]=1&constructor[prototype][polluted]=1&prototype=z&name=Tom'
  const plain = await app.inject(`/query-plain${url}`)
  assert.equal(plain.statusCode, 200)
  assert.deepEqual(plain.json(), { keys: ['__proto__', '__proto__[polluted]', 'constructor[prototype][polluted]', 'name', 'prototype'] })
  prototypesUntouched()

  const transformed = await app.inject(`/query${url}`)
  assert.equal(transformed.statusCode, 200)
  assert.deepEqual(transformed.json(), { isDto: true, ownKeys: ['__proto__[polluted]', 'constructor[prototype][polluted]', 'name', 'prototype'] })
  assert.equal((CatQuery.prototype as any).polluted, undefined)
  prototypesUntouched()
  await servesNext(app)
})

test('CR/LF in a redirect URL returned at run time: a clean 500, logged once, no split response', async (t) => {
  const logs = captureLogs()
  const app = await buildApp(t, InputModule, { logger: { stream: logs.stream } })
  const res = await app.inject('/go?to=/home%0d%0aSet-Cookie:%20session=stolen')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(res.headers.location, undefined)
  assert.equal(res.headers['set-cookie'], undefined)
  const errors = logs.errors()
  assert.equal(errors.length, 1)
  assert.equal(errors[0].reqId, 'req-1')
  assert.match(errors[0].err!.message, /InputController\.go returned a redirect URL with characters not allowed in a header/)

  const safe = await app.inject('/go?to=/cats')
  assert.equal(safe.statusCode, 302)
  assert.equal(safe.headers.location, '/cats')
})

test('CR/LF in a header value set by the handler: a clean 500, logged once, no split response', async (t) => {
  const logs = captureLogs()
  const app = await buildApp(t, InputModule, { logger: { stream: logs.stream } })
  const res = await app.inject('/header?v=a%0d%0aSet-Cookie:%20session=stolen')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(res.headers['x-echo'], undefined)
  assert.equal(res.headers['set-cookie'], undefined)
  const errors = logs.errors()
  assert.equal(errors.length, 1)
  assert.equal(errors[0].reqId, 'req-1')
  assert.equal(errors[0].err!.type, 'TypeError')

  const safe = await app.inject('/header?v=fine')
  assert.equal(safe.statusCode, 200)
  assert.equal(safe.headers['x-echo'], 'fine')
})

/** The raw bytes of one response, read until the server closes the connection. */
function rawExchange (port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`))
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => { text += chunk })
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
}

test('on the wire, CR/LF from a redirect or a header value never starts a header line of its own', async (t) => {
  const app = await buildApp(t, InputModule, { logger: false })
  const port = await listen(app)
  for (const path of ['/go?to=/x%0d%0aSet-Cookie:%20a=1', '/go?to=/x%0aSet-Cookie:%20a=1', '/header?v=a%0d%0aSet-Cookie:%20a=1', '/header?v=a%0d%0a%0d%0a<html>']) {
    const raw = await rawExchange(port, path)
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'))
    assert.match(head, /^HTTP\/1\.1 500 Internal Server Error\r\n/, path)
    assert.doesNotMatch(head, /^set-cookie/im, path)
    assert.equal(raw.split('HTTP/1.1 ').length, 2, `one response for ${path}`)
  }
  const next = await request(port, '/ok')
  assert.equal(next.status, 200)
})
