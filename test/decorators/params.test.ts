import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Controller, Get, Post, Param, Query, Body, Headers, Req, Res, Ip, createParamDecorator, Request as RequestParam, Response as ResponseParam,
  UsePipes, type ExecutionContext, type Request, type Response, type PipeTransform, type ArgumentMetadata
} from '../../plugin/index.js'
import { paramDefinitions } from '../../plugin/decorators/params.js'
import { build } from '../helpers/app.js'
import { sameShape } from '../helpers/shape.js'

test('@Param, @Query, @Body and @Headers give one value by name or the whole object', async (t) => {
  @Controller('p')
  class Params {
    @Post(':id/:slug')
    all (@Param() params: unknown, @Param('id') id: string, @Query() query: unknown, @Query('q') q: string,
      @Body() body: unknown, @Body('name') name: string, @Headers('X-Token') token: string, @Headers() headers: Record<string, string>) {
      return { params, id, query, q, body, name, token, lower: headers['x-token'], missing: headers['X-Token'] ?? null }
    }
  }
  @Module({ controllers: [Params] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject({
    method: 'POST',
    url: '/p/7/tom%20cat?q=a&q=b&flag',
    headers: { 'x-token': 'secret' },
    payload: { name: 'Tom', age: 3 }
  })
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), {
    params: { id: '7', slug: 'tom cat' },
    id: '7',
    query: { q: ['a', 'b'], flag: '' },
    q: ['a', 'b'],
    body: { name: 'Tom', age: 3 },
    name: 'Tom',
    token: 'secret',
    lower: 'secret',
    missing: null
  })
})

test('header names are case-insensitive in @Headers(name)', async (t) => {
  @Controller('h')
  class HeadersController {
    @Get() get (@Headers('CONTENT-type') a: string, @Headers('Accept-Language') b: string, @Headers('x-absent') c: string) {
      return { a, b, c: c ?? null }
    }
  }
  @Module({ controllers: [HeadersController] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject({ url: '/h', headers: { 'Content-Type': 'text/x-thing', 'ACCEPT-LANGUAGE': 'fr' } })
  assert.deepEqual(res.json(), { a: 'text/x-thing', b: 'fr', c: null })
})

test('@Body(name) on a request without a body or with a non-object body gives undefined', async (t) => {
  @Controller('b')
  class Bodies {
    @Post() post (@Body('name') name: unknown, @Body() body: unknown) { return { name: name ?? null, body: body ?? null } }
  }
  @Module({ controllers: [Bodies] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/b' })).json(), { name: null, body: null })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/b', payload: 'text', headers: { 'content-type': 'text/plain' } })).json(), { name: null, body: 'text' })
  // Only own properties: nothing is read from the prototype chain.
  assert.deepEqual((await app.inject({ method: 'POST', url: '/b', payload: { other: 1 } })).json(), { name: null, body: { other: 1 } })
  const proto = await app.inject({ method: 'POST', url: '/b', payload: '{"toString":1}', headers: { 'content-type': 'application/json' } })
  assert.equal(proto.json().name, null)
})

test('@Req() is the Fastify request, @Ip() its ip', async (t) => {
  @Controller('r')
  class Reqs {
    @Get() get (@Req() req: Request, @Ip() ip: string) {
      return { url: req.url, id: typeof req.id, raw: typeof req.raw.on, routeUrl: req.routeOptions.url, ip }
    }
  }
  @Module({ controllers: [Reqs] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject({ url: '/r?x=1', remoteAddress: '10.0.0.9' })).json(), {
    url: '/r?x=1', id: 'string', raw: 'function', routeUrl: '/r', ip: '10.0.0.9'
  })
})

test('@Res() hands the reply to the handler: it sends, its return value is ignored', async (t) => {
  @Controller('res')
  class Replies {
    @Get() sync (@Res() res: Response) {
      res.code(202).header('x-own', '1').send({ own: true })
      return { ignored: true }
    }

    @Get('later') async later (@Res() res: Response) {
      await new Promise((resolve) => setImmediate(resolve))
      res.type('text/plain').send('later')
    }

    @Post('code') code (@Res() res: Response) { res.send('default status') }
    @Post('own-code') ownCode (@Res() res: Response) { res.code(200).send('own status') }
  }
  @Module({ controllers: [Replies] })
  class AppModule {}

  const app = await build(t, AppModule)
  const sync = await app.inject('/res')
  assert.equal(sync.statusCode, 202)
  assert.equal(sync.headers['x-own'], '1')
  assert.deepEqual(sync.json(), { own: true })
  const later = await app.inject('/res/later')
  assert.equal(later.statusCode, 200)
  assert.equal(later.body, 'later')
  // As in NestJS the default status is set before the handler runs; the handler may change it.
  const code = await app.inject({ method: 'POST', url: '/res/code' })
  assert.equal(code.statusCode, 201)
  assert.equal(code.body, 'default status')
  const own = await app.inject({ method: 'POST', url: '/res/own-code' })
  assert.equal(own.statusCode, 200)
  assert.equal(own.body, 'own status')
})

test('@Res({ passthrough: true }) lets the handler shape the reply while its return value is sent', async (t) => {
  @Controller('pass')
  class Passthrough {
    @Get() get (@Res({ passthrough: true }) res: Response) {
      res.header('x-pass', 'yes').code(206)
      return { sent: 'by the plugin' }
    }

    @Post() async post (@Res({ passthrough: true }) res: Response) {
      res.header('x-pass', 'post')
      return 'created'
    }
  }
  @Module({ controllers: [Passthrough] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject('/pass')
  assert.equal(res.statusCode, 206)
  assert.equal(res.headers['x-pass'], 'yes')
  assert.deepEqual(res.json(), { sent: 'by the plugin' })
  const post = await app.inject({ method: 'POST', url: '/pass' })
  assert.equal(post.statusCode, 201)
  assert.equal(post.headers['x-pass'], 'post')
  assert.equal(post.body, 'created')
})

test('createParamDecorator gets its data and an ExecutionContext for the route', async (t) => {
  const seen: Record<string, unknown> = {}
  const Ctx = createParamDecorator((data: string, ctx: ExecutionContext) => {
    const http = ctx.switchToHttp()
    seen.reply = http.getResponse<Response>().request === http.getRequest()
    seen.handler = ctx.getHandler()
    seen.cls = ctx.getClass()
    seen.type = ctx.getType()
    seen.args = ctx.getArgs().length
    return `${data}:${http.getRequest<Request>().headers['x-user']}`
  })
  const User = createParamDecorator((data: undefined, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().user ?? 'anonymous')

  @Controller('custom')
  class Custom {
    @Get() get (@Ctx('who') who: string, @User() user: unknown) { return { who, user } }
  }
  @Module({ controllers: [Custom] })
  class AppModule {}

  const app = await build(t, AppModule, {}, (app) => app.addHook('onRequest', async (req) => { if (req.headers['x-user'] === 'ann') req.user = { name: 'ann' } }))
  assert.deepEqual((await app.inject({ url: '/custom', headers: { 'x-user': 'ann' } })).json(), { who: 'who:ann', user: { name: 'ann' } })
  assert.deepEqual((await app.inject({ url: '/custom', headers: { 'x-user': 'bob' } })).json(), { who: 'who:bob', user: 'anonymous' })
  assert.equal(seen.reply, true)
  assert.equal(seen.handler, Custom.prototype.get)
  assert.equal(seen.cls, Custom)
  assert.equal(seen.type, 'http')
  assert.equal(seen.args, 3)
})

test('a custom decorator may be async and may throw: its error is the request\'s error', async (t) => {
  const Later = createParamDecorator(async () => { await new Promise((resolve) => setImmediate(resolve)); return 'later' })
  const Broken = createParamDecorator(() => { throw new Error('broken decorator') })
  @Controller('c')
  class Custom {
    @Get('later') later (@Later() value: unknown) { return { value: value instanceof Promise ? 'promise' : value } }
    @Get('broken') broken (@Broken() value: unknown) { return value }
  }
  @Module({ controllers: [Custom] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/c/later')).json(), { value: 'later' })
  const broken = await app.inject('/c/broken')
  assert.equal(broken.statusCode, 500)
  assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
  assert.deepEqual((await app.inject('/c/later')).json(), { value: 'later' })
})

test('each parameter records its kind, name and index for pipes; pipes receive type and data', async (t) => {
  const calls: Array<[unknown, ArgumentMetadata]> = []
  class Recorder implements PipeTransform {
    transform (value: unknown, metadata: ArgumentMetadata) { calls.push([value, metadata]); return value }
  }
  const Custom = createParamDecorator((data: string) => `custom ${data}`)

  @Controller('meta')
  @UsePipes(Recorder)
  class Meta {
    @Post(':id') post (@Param('id') id: string, @Query('q') q: string, @Body() body: unknown, @Custom('x') c: string,
      @Headers('x-h') h: string, @Req() req: Request) { return { id, q, body, c, h: h ?? null, req: typeof req } }
  }
  @Module({ controllers: [Meta] })
  class AppModule {}

  const definitions = paramDefinitions(Meta.prototype, 'post').map(({ index, kind, data }) => ({ index, kind, data }))
  assert.deepEqual(definitions.sort((a, b) => a.index - b.index), [
    { index: 0, kind: 'param', data: 'id' },
    { index: 1, kind: 'query', data: 'q' },
    { index: 2, kind: 'body', data: undefined },
    { index: 3, kind: 'custom', data: 'x' },
    { index: 4, kind: 'headers', data: 'x-h' },
    { index: 5, kind: 'req', data: undefined }
  ])

  const app = await build(t, AppModule)
  const res = await app.inject({ method: 'POST', url: '/meta/3?q=z', payload: { a: 1 } })
  assert.deepEqual(res.json(), { id: '3', q: 'z', body: { a: 1 }, c: 'custom x', h: null, req: 'object' })
  // Headers, request and reply are not pipeable, as in NestJS.
  const byType = calls.map(([value, { type, data }]) => ({ value, type, data })).sort((a, b) => String(a.type).localeCompare(String(b.type)))
  assert.deepEqual(byType, [
    { value: { a: 1 }, type: 'body', data: undefined },
    { value: 'custom x', type: 'custom', data: 'x' },
    { value: '3', type: 'param', data: 'id' },
    { value: 'z', type: 'query', data: 'q' }
  ])
})

test('parameter decorators fail at declaration on bad input', () => {
  assert.throws(() => Param(42 as any), { code: 'FDP_ERR_INVALID_DECLARATION' })
  assert.throws(() => Query('a', {} as any), { code: 'FDP_ERR_INVALID_DECLARATION' })
  assert.throws(() => Headers(42 as any), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@Headers() takes a header name, given number 42.' })
  assert.throws(() => {
    class Bad { constructor (@Req() readonly req: unknown) {} }
    return Bad
  }, { code: 'FDP_ERR_INVALID_DECLARATION', message: /not to the constructor of Bad/ })
})

test('two parameter decorators on one parameter fail registration, naming the handler', async (t) => {
  @Controller('twice')
  class Twice { @Get() get (@Query() @Param() value: unknown) { return value } }
  @Module({ controllers: [Twice] })
  class AppModule {}

  await assert.rejects(build(t, AppModule), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: 'Twice.get: parameter 0 has more than one parameter decorator; keep one.'
  })
})

test('the parameter definitions one decorator records share one hidden class, whatever their data and index', () => {
  const shapes = Array.from({ length: 12 }, (_, c) => {
    class Shapes {
      list (@Param('id') id: string, @Query() query: unknown, @Param(`name${c}`) name: string) { return [id, query, name] }
    }
    return paramDefinitions(Shapes.prototype, 'list')
  })
  const byIndex = (params: ReturnType<typeof paramDefinitions>, index: number) => params.find((param) => param.index === index)!
  assert.equal(sameShape(byIndex(shapes[0], 0), byIndex(shapes[11], 2)), true)
  assert.equal(sameShape(byIndex(shapes[0], 0), byIndex(shapes[5], 0)), true)
  assert.equal(sameShape(byIndex(shapes[3], 1), byIndex(shapes[9], 1)), true)
  assert.deepEqual(byIndex(shapes[4], 2), { kind: 'param', data: 'name4', pipes: [], index: 2 })
})

test('a method keeps one parameter list, grown in place by each parameter decorator', () => {
  class Grown { find (id: string, query: unknown, tenant: string) { return [id, query, tenant] } }
  Param('id')(Grown.prototype, 'find', 0)
  const own = paramDefinitions(Grown.prototype, 'find')
  Query()(Grown.prototype, 'find', 1)
  Headers('x-tenant')(Grown.prototype, 'find', 2)
  // No copy per decorator (a method's parameters would cost quadratic time and garbage to declare).
  assert.equal(paramDefinitions(Grown.prototype, 'find'), own)
  assert.deepEqual(own.map(({ index, kind, data }) => [index, kind, data]), [[0, 'param', 'id'], [1, 'query', undefined], [2, 'headers', 'x-tenant']])
})

test('@Request() and @Response() are NestJS\'s names of @Req() and @Res()', async (t) => {
  @Controller('aliases')
  class AliasesController {
    @Get()
    get (@RequestParam() request: Request, @ResponseParam({ passthrough: true }) reply: Response) {
      reply.header('x-url', request.url)
      return { method: request.method }
    }

    @Get('raw')
    raw (@ResponseParam() reply: Response) { reply.code(202).send('answered itself') }
  }
  @Module({ controllers: [AliasesController] })
  class AliasesModule {}
  const app = await build(t, AliasesModule)
  const res = await app.inject('/aliases')
  assert.deepEqual([res.json(), res.headers['x-url']], [{ method: 'GET' }, '/aliases'])
  const raw = await app.inject('/aliases/raw')
  assert.deepEqual([raw.statusCode, raw.body], [202, 'answered itself'])
})
