import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import {
  Module, Controller, Get, Post, Put, Delete, All, HttpCode, Header, Redirect, Res, Query,
  BadRequestException, type Response
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

@Controller('r')
class Responses {
  @Get('object') object () { return { a: 1, nested: { b: [1, 2] } } }
  @Get('array') array () { return [1, 'two', { three: 3 }] }
  @Get('string') string () { return 'plain text' }
  @Get('undefined') nothing () {}
  @Get('null') nil () { return null }
  @Get('number') number () { return 42 }
  @Get('boolean') boolean () { return false }
  @Get('buffer') buffer () { return Buffer.from([0, 1, 2, 255]) }
  @Get('stream') stream () { return Readable.from(['chunk one, ', 'chunk two']) }
  @Get('promise') async promise () { await tick(); return { later: true } }
  @Get('promise-undefined') async promiseUndefined () { await tick() }
  @Get('promise-string') promiseString () { return Promise.resolve('resolved') }
  @Post() create () { return { created: true } }
  @Post('empty') createEmpty () {}
  @Put() put () { return 'put' }
  @Delete() remove () { return 'deleted' }
}

@Module({ controllers: [Responses] })
class ResponsesModule {}

test('return values: objects and arrays as JSON, strings as text, undefined as an empty body', async (t) => {
  const app = await build(t, ResponsesModule)

  const object = await app.inject('/r/object')
  assert.equal(object.statusCode, 200)
  assert.equal(object.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(object.body, '{"a":1,"nested":{"b":[1,2]}}')

  const array = await app.inject('/r/array')
  assert.equal(array.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(array.body, '[1,"two",{"three":3}]')

  const string = await app.inject('/r/string')
  assert.equal(string.headers['content-type'], 'text/plain; charset=utf-8')
  assert.equal(string.body, 'plain text')

  const nothing = await app.inject('/r/undefined')
  assert.equal(nothing.statusCode, 200)
  assert.equal(nothing.body, '')
  assert.equal(nothing.headers['content-length'], '0')
  assert.equal(nothing.headers['content-type'], undefined)

  const nil = await app.inject('/r/null')
  assert.equal(nil.statusCode, 200)
  assert.equal(nil.body, 'null')
  assert.equal(nil.headers['content-type'], 'application/json; charset=utf-8')

  assert.equal((await app.inject('/r/number')).body, '42')
  assert.equal((await app.inject('/r/boolean')).body, 'false')
})

test('Buffers and streams pass through; promises are awaited', async (t) => {
  const app = await build(t, ResponsesModule)

  const buffer = await app.inject('/r/buffer')
  assert.equal(buffer.statusCode, 200)
  assert.equal(buffer.headers['content-type'], 'application/octet-stream')
  assert.deepEqual(buffer.rawPayload, Buffer.from([0, 1, 2, 255]))

  const stream = await app.inject('/r/stream')
  assert.equal(stream.statusCode, 200)
  assert.equal(stream.body, 'chunk one, chunk two')

  assert.deepEqual((await app.inject('/r/promise')).json(), { later: true })
  const promiseUndefined = await app.inject('/r/promise-undefined')
  assert.equal(promiseUndefined.statusCode, 200)
  assert.equal(promiseUndefined.body, '')
  assert.equal((await app.inject('/r/promise-string')).body, 'resolved')
})

test('status: 200 by default, 201 for @Post, even with an empty body', async (t) => {
  const app = await build(t, ResponsesModule)
  assert.equal((await app.inject({ method: 'PUT', url: '/r' })).statusCode, 200)
  assert.equal((await app.inject({ method: 'DELETE', url: '/r' })).statusCode, 200)
  const created = await app.inject({ method: 'POST', url: '/r' })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { created: true })
  const empty = await app.inject({ method: 'POST', url: '/r/empty' })
  assert.equal(empty.statusCode, 201)
  assert.equal(empty.body, '')
})

test('@HttpCode sets the success status; exceptions keep their own', async (t) => {
  @Controller('code')
  class Codes {
    @Post() @HttpCode(200) ok () { return 'ok' }
    @Delete() @HttpCode(204) gone () { return { dropped: true } }
    @Get() @HttpCode(202) accepted (@Query('fail') fail: string) {
      if (fail) throw new BadRequestException('failed')
      return 'accepted'
    }

    @All('all') @HttpCode(203) all () { return 'all' }
  }
  @Module({ controllers: [Codes] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ method: 'POST', url: '/code' })).statusCode, 200)
  const gone = await app.inject({ method: 'DELETE', url: '/code' })
  assert.equal(gone.statusCode, 204)
  assert.equal(gone.body, '')
  assert.equal((await app.inject('/code')).statusCode, 202)
  const failed = await app.inject('/code?fail=1')
  assert.equal(failed.statusCode, 400)
  assert.deepEqual(failed.json(), { statusCode: 400, message: 'failed', error: 'Bad Request' })
  assert.equal((await app.inject({ method: 'POST', url: '/code/all' })).statusCode, 203)
})

test('@HttpCode and @Header reject bad input at declaration', () => {
  assert.throws(() => HttpCode(99), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@HttpCode() takes an HTTP status from 100 to 599, given number 99.' })
  assert.throws(() => HttpCode('200' as any), { code: 'FDP_ERR_INVALID_DECLARATION' })
  assert.throws(() => Header('', 'v'), { code: 'FDP_ERR_INVALID_DECLARATION' })
  assert.throws(() => Header('x-a', 'v\r\nx-b: injected'), { code: 'FDP_ERR_INVALID_DECLARATION' })
})

test('@Header adds headers in source order, also on error replies', async (t) => {
  @Controller('head')
  class Headed {
    @Get()
    @Header('Cache-Control', 'no-store')
    @Header('X-Powered', 'decorators')
    get (@Query('fail') fail: string) {
      if (fail === 'http') throw new BadRequestException('bad')
      if (fail === 'crash') throw new Error('crash')
      return 'ok'
    }

    @Get('override')
    @Header('x-kind', 'decorated')
    override (@Res({ passthrough: true }) res: Response) {
      res.header('x-kind', 'handler')
      return 'ok'
    }
  }
  @Module({ controllers: [Headed] })
  class AppModule {}

  const app = await build(t, AppModule)
  for (const url of ['/head', '/head?fail=http', '/head?fail=crash']) {
    const res = await app.inject(url)
    assert.equal(res.headers['cache-control'], 'no-store', url)
    assert.equal(res.headers['x-powered'], 'decorators', url)
  }
  assert.equal((await app.inject('/head?fail=http')).statusCode, 400)
  assert.equal((await app.inject('/head?fail=crash')).statusCode, 500)
  // Set before the handler runs, so the handler has the last word.
  assert.equal((await app.inject('/head/override')).headers['x-kind'], 'handler')
})

test('@Redirect sends the decorated location and status; a returned { url, statusCode } overrides', async (t) => {
  @Controller('go')
  class Redirects {
    @Get() @Redirect('/docs') plain () {}
    @Get('moved') @Redirect('/new', 301) moved () {}
    @Get('dynamic') @Redirect('/default', 302)
    dynamic (@Query('to') to: string, @Query('code') code: string) {
      if (to && code) return { url: to, statusCode: Number(code) }
      if (to) return { url: to }
      if (code) return { statusCode: Number(code) }
    }

    @Post('after') @Redirect('/done', 303) async after () { await tick() }
  }
  @Module({ controllers: [Redirects] })
  class AppModule {}

  const app = await build(t, AppModule)
  const check = async (url: string, status: number, location: string, method: 'GET' | 'POST' = 'GET') => {
    const res = await app.inject({ method, url })
    assert.equal(res.statusCode, status, url)
    assert.equal(res.headers.location, location, url)
    assert.equal(res.body, '', url)
  }
  await check('/go', 302, '/docs')
  await check('/go/moved', 301, '/new')
  await check('/go/dynamic', 302, '/default')
  await check('/go/dynamic?to=/elsewhere', 302, '/elsewhere')
  await check('/go/dynamic?code=307', 307, '/default')
  await check('/go/dynamic?to=/x&code=308', 308, '/x')
  await check('/go/after', 303, '/done', 'POST')
})

test('@Redirect rejects a non-3xx status at declaration', () => {
  assert.throws(() => Redirect('/x', 200), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@Redirect() takes a 3xx status, given number 200.' })
  assert.throws(() => Redirect(42 as any), { code: 'FDP_ERR_INVALID_DECLARATION' })
})

test('an @All route answers 200 to every method, POST included', async (t) => {
  @Controller('all')
  class Everything { @All() any () { return { ok: true } } }
  @Module({ controllers: [Everything] })
  class AppModule {}

  const app = await build(t, AppModule)
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    const res = await app.inject({ method, url: '/all' })
    assert.equal(res.statusCode, 200, method)
    assert.deepEqual(res.json(), { ok: true })
  }
})
