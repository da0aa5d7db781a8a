import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyReply, RouteOptions } from 'fastify'
import {
  Module, Controller, Get, Post, Body, Param, Query, Res, HttpCode, Header, Redirect, Scope, Injectable, UseGuards, UsePipes, UseInterceptors, UseFilters, Catch,
  RouteSchema, createParamDecorator, UnauthorizedException, ForbiddenException, HttpException
} from '../../plugin/index.js'
import type { ArgumentMetadata, ArgumentsHost, CallHandler, CanActivate, ExceptionFilter, ExecutionContext, NestInterceptor, PipeTransform } from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { effectiveHooks } from '../helpers/routes.js'

const forbidden = { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' }

// Records one request's path through the pipeline.
const trail: string[] = []
const guard = (name: string): CanActivate => ({ canActivate () { trail.push(`guard:${name}`); return true } })
const interceptor = (name: string): NestInterceptor => ({
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    trail.push(`before:${name}`)
    const result = await next.handle()
    trail.push(`after:${name}`)
    return result
  }
})
const pipe = (name: string): PipeTransform => ({ transform (value: unknown) { trail.push(`pipe:${name}`); return value } })

@Controller('order')
@UseGuards(guard('controller'))
@UseInterceptors(interceptor('controller'))
@UsePipes(pipe('controller'))
class OrderController {
  @Get(':id')
  @UseGuards(guard('handler'))
  @UseInterceptors(interceptor('handler'))
  @UsePipes(pipe('handler'))
  find (@Param('id', pipe('param')) id: string) {
    trail.push('handler')
    return { id }
  }
}

@Module({ controllers: [OrderController] })
class OrderModule {}

test('a request runs: app onRequest, guards, interceptors before, pipes, handler, interceptors after in reverse', async (t) => {
  const app = await build(t, OrderModule, {
    globalGuards: [guard('global')],
    globalInterceptors: [interceptor('global')],
    globalPipes: [pipe('global')]
  }, (app) => {
    app.addHook('onRequest', async () => { trail.push('app:onRequest') })
    app.addHook('onSend', async () => { trail.push('app:onSend') })
  })
  trail.length = 0
  const response = await app.inject('/order/7')
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), { id: '7' })
  assert.deepEqual(trail, [
    'app:onRequest',
    'guard:global', 'guard:controller', 'guard:handler',
    'before:global', 'before:controller', 'before:handler',
    'pipe:global', 'pipe:controller', 'pipe:handler', 'pipe:param',
    'handler',
    'after:handler', 'after:controller', 'after:global',
    'app:onSend'
  ])
})

const denyAll: CanActivate = { canActivate: () => false }

@Controller('guarded')
class GuardedController {
  @Post()
  @UseGuards(denyAll)
  @RouteSchema({ body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } })
  create (@Body() body: unknown) { return body }

  @Post('open')
  @UseGuards({ canActivate: (ctx: ExecutionContext) => (ctx.switchToHttp().getRequest() as any).body?.pass === true })
  @RouteSchema({ body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } })
  open (@Body() body: unknown) { return body }
}

@Module({ controllers: [GuardedController] })
class GuardedModule {}

test('guards run as a preValidation hook: the body is parsed, schema validation comes after (403 before 400)', async (t) => {
  const app = await build(t, GuardedModule)
  const denied = await app.inject({ method: 'POST', url: '/guarded', payload: { wrong: 1 } })
  assert.equal(denied.statusCode, 403)
  assert.deepEqual(denied.json(), forbidden)

  // The guard reads the parsed body; schema validation then rejects what the guard let through.
  const invalid = await app.inject({ method: 'POST', url: '/guarded/open', payload: { pass: true } })
  assert.equal(invalid.statusCode, 400)
  assert.equal(invalid.json().code, 'FST_ERR_VALIDATION')
  assert.equal((await app.inject({ method: 'POST', url: '/guarded/open', payload: { name: 'x' } })).statusCode, 403)
  const ok = await app.inject({ method: 'POST', url: '/guarded/open', payload: { pass: true, name: 'x' } })
  assert.equal(ok.statusCode, 201)
  assert.deepEqual(ok.json(), { pass: true, name: 'x' })
})

@Controller('hooks')
class HooksController {
  @Get()
  @UseGuards({ canActivate () { trail.push('guard'); return true } })
  get () { trail.push('handler'); return 'ok' }
}

@Module({ controllers: [HooksController] })
class HooksModule {}

test('guards compose with the app\'s own hooks: after its preValidation hooks, before its preHandler hooks', async (t) => {
  const app = await build(t, HooksModule, {}, (app) => {
    app.addHook('preValidation', async () => { trail.push('app:preValidation') })
    app.addHook('preHandler', async () => { trail.push('app:preHandler') })
  })
  trail.length = 0
  assert.equal((await app.inject('/hooks')).body, 'ok')
  assert.deepEqual(trail, ['app:preValidation', 'guard', 'app:preHandler', 'handler'])
})

@Controller('guards')
class GuardOutcomes {
  @Get('false') @UseGuards({ canActivate: () => false }) false () { return 'never' }
  @Get('async-false') @UseGuards({ canActivate: async () => false }) asyncFalse () { return 'never' }
  @Get('async-true') @UseGuards({ canActivate: async () => true }) asyncTrue () { return 'yes' }
  @Get('throws') @UseGuards({ canActivate () { throw new UnauthorizedException() } }) throws () { return 'never' }
  @Get('rejects') @UseGuards({ canActivate: async () => { throw new ForbiddenException('members only') } }) rejects () { return 'never' }
  @Get('first-false')
  @UseGuards({ canActivate: () => false }, { canActivate () { trail.push('second guard'); return true } })
  firstFalse () { return 'never' }
}

@Module({ controllers: [GuardOutcomes] })
class GuardOutcomesModule {}

test('guard outcomes: false gives the exact 403, thrown exceptions pass through, the first false stops the rest', async (t) => {
  const app = await build(t, GuardOutcomesModule)
  for (const url of ['/guards/false', '/guards/async-false']) {
    const response = await app.inject(url)
    assert.equal(response.statusCode, 403)
    assert.equal(response.body, JSON.stringify(forbidden))
  }
  assert.equal((await app.inject('/guards/async-true')).body, 'yes')
  const unauthorized = await app.inject('/guards/throws')
  assert.equal(unauthorized.statusCode, 401)
  assert.deepEqual(unauthorized.json(), { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  const rejected = await app.inject('/guards/rejects')
  assert.equal(rejected.statusCode, 403)
  assert.deepEqual(rejected.json(), { statusCode: 403, message: 'members only', error: 'Forbidden' })
  trail.length = 0
  assert.equal((await app.inject('/guards/first-false')).statusCode, 403)
  assert.deepEqual(trail, [])
})

const CurrentUser = createParamDecorator((field: string | undefined, ctx: ExecutionContext) => {
  const user = ctx.switchToHttp().getRequest().user
  return field === undefined ? user : user?.[field]
})

@Injectable()
class AuthGuard implements CanActivate {
  canActivate (ctx: ExecutionContext) {
    const request = ctx.switchToHttp().getRequest()
    const token = request.headers.authorization
    if (token === undefined) throw new UnauthorizedException()
    request.user = { name: token, roles: ['admin'] }
    return true
  }
}

@Controller('me')
@UseGuards(AuthGuard)
class MeController {
  @Get() me (@CurrentUser() user: unknown, @CurrentUser('name') name: string) { return { user, name } }
}

@Module({ controllers: [MeController] })
class MeModule {}

test('a guard sets request.user and a custom parameter decorator reads it', async (t) => {
  const app = await build(t, MeModule)
  const response = await app.inject({ url: '/me', headers: { authorization: 'ann' } })
  assert.deepEqual(response.json(), { user: { name: 'ann', roles: ['admin'] }, name: 'ann' })
  assert.equal((await app.inject('/me')).statusCode, 401)
})

@Controller('plain')
class PlainController {
  @Get() list () { return ['a'] }
  @Get('nothing') nothing () {}
}

@Controller('full')
@UseFilters({ catch (exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse<any>().code(418).send({ filtered: true }) } })
class FullController {
  @Get(':id')
  @UseGuards({ canActivate: (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<any>().params.id !== 'no' })
  @UseInterceptors({ intercept: async (ctx: ExecutionContext, next: CallHandler) => ({ wrapped: await next.handle() }) })
  @UsePipes({ transform: (value: unknown, metadata: ArgumentMetadata) => metadata.type === 'param' ? `${value as string}!` : value })
  find (@Param('id') id: string, @CurrentUser() user: unknown) {
    if (id === 'boom!') throw new Error('boom')
    return { id, user: user ?? null }
  }
}

@Module({ controllers: [PlainController, FullController] })
class ShapeModule {}

test('the chain is composed at registration: a plain route has no hook, no error handler and a sync handler', async (t) => {
  const routes = new Map<string, RouteOptions>()
  const app = await build(t, ShapeModule, {}, (app) => {
    app.addHook('onRoute', (route) => { if (route.method !== 'HEAD') routes.set(route.url, route) })
  })
  const plain = routes.get('/plain')!
  // Fastify's own view once ready: the route's hook arrays stay empty, so it runs no hook.
  assert.deepEqual(effectiveHooks(app, '/plain (GET)'), [])
  assert.deepEqual(effectiveHooks(app, '/full/:id (GET)'), ['(preValidation) ["fdpGuards()"]'])
  assert.equal(plain.errorHandler, undefined)
  assert.notEqual(plain.handler.constructor.name, 'AsyncFunction')
  assert.deepEqual((await app.inject('/plain')).json(), ['a'])
  const nothing = await app.inject('/plain/nothing')
  assert.equal(nothing.statusCode, 200)
  assert.equal(nothing.body, '')

  const full = routes.get('/full/:id')!
  assert.deepEqual((full.preValidation as Function[]).map((hook) => typeof hook), ['function'])
  // Controller-level filters are the controller context's error handler, not a per-route one.
  assert.equal(full.errorHandler, undefined)
})

test('nothing reads reflection metadata per request', async (t) => {
  const app = await build(t, ShapeModule, { globalGuards: [AuthGuard], globalFilters: [{ catch (e: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse<any>().code(500).send({ global: true }) } }] })
  const original = { getMetadata: Reflect.getMetadata, getOwnMetadata: Reflect.getOwnMetadata, hasMetadata: Reflect.hasMetadata, getMetadataKeys: Reflect.getMetadataKeys }
  let reads = 0
  for (const name of Object.keys(original) as Array<keyof typeof original>) {
    (Reflect as any)[name] = function (...args: unknown[]) { reads++; return (original[name] as Function).apply(Reflect, args) }
  }
  try {
    const headers = { authorization: 'ann' }
    assert.deepEqual((await app.inject({ url: '/full/1', headers })).json(), { wrapped: { id: '1!', user: { name: 'ann', roles: ['admin'] } } })
    assert.deepEqual((await app.inject({ url: '/full/boom', headers })).json(), { filtered: true })
    assert.equal((await app.inject({ url: '/full/no', headers })).statusCode, 418)
    assert.deepEqual((await app.inject({ url: '/plain', headers })).json(), ['a'])
    assert.equal((await app.inject('/plain')).statusCode, 500)
    assert.equal(reads, 0)
    // The spy is live: a read outside the pipeline is counted.
    Reflect.getMetadata('key', PlainController)
    assert.equal(reads, 1)
  } finally {
    Object.assign(Reflect, original)
  }
})

@Catch(HttpException)
class HttpOnlyFilter implements ExceptionFilter {
  catch (exception: HttpException, host: ArgumentsHost) {
    host.switchToHttp().getResponse<any>().code(exception.getStatus()).send({ caughtBy: 'controller', status: exception.getStatus() })
  }
}

@Controller('schema')
@UseFilters(HttpOnlyFilter)
class SchemaController {
  @Post()
  @UseGuards({ canActivate: () => true })
  @RouteSchema({ body: { type: 'object', required: ['name'] } })
  create (@Body() body: unknown) { return body }
}

@Module({ controllers: [SchemaController] })
class SchemaModule {}

test('an error with a statusCode that no filter takes keeps Fastify\'s format', async (t) => {
  const app = await build(t, SchemaModule)
  const response = await app.inject({ method: 'POST', url: '/schema', payload: {} })
  assert.equal(response.statusCode, 400)
  assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'error', 'message', 'statusCode'])
  assert.equal(response.json().code, 'FST_ERR_VALIDATION')
  assert.equal((await app.inject({ method: 'POST', url: '/schema', payload: { name: 'a' } })).statusCode, 201)
})

// Pipes that answer later: the handler waits for each, however many are pending at once.
const later = (suffix: string): PipeTransform => ({ transform: async (value: unknown) => `${String(value)}${suffix}` })

@Controller('later')
class LaterController {
  @Get('one/:a')
  one (@Param('a', later('!')) a: string) { return { a } }

  @Get('two/:a/:b')
  two (@Param('a', later('!')) a: string, @Param('b') b: string) { return { a, b } }

  @Get('three/:a/:b/:c')
  three (@Param('a', later('!')) a: string, @Param('b') b: string, @Param('c', later('?')) c: string) { return { a, b, c } }
}

@Module({ controllers: [LaterController] })
class LaterModule {}

test('arguments whose pipes answer later reach the handler settled, one pending or several', async (t) => {
  const app = await build(t, LaterModule)
  assert.deepEqual((await app.inject('/later/one/x')).json(), { a: 'x!' })
  assert.deepEqual((await app.inject('/later/two/x/y')).json(), { a: 'x!', b: 'y' })
  assert.deepEqual((await app.inject('/later/three/x/y/z')).json(), { a: 'x!', b: 'y', c: 'z?' })
})

// Each part of a handler is made only for the routes whose shape needs it: every shape, side by side.
const around: NestInterceptor = { intercept: async (ctx: ExecutionContext, next: CallHandler) => ({ around: await next.handle() }) }

@Controller('shapes')
class ShapesController {
  @Get('none') none () { return { none: true } }
  @Get('one/:a') one (@Param('a') a: string) { return { a } }
  @Get('piped/:a') piped (@Param('a', later('!')) a: string) { return { a } }
  @Get('gap/:b') gap (first: unknown, @Param('b') b: string) { return { first: first === undefined ? 'undefined' : first, b } }
  @Get('many/:a/:b') many (@Param('a') a: string, @Query('q') q: string, @Param('b', later('!')) b: string) { return { a, q, b } }
  @Get('intercepted/:a') @UseInterceptors(around) intercepted (@Param('a', later('!')) a: string) { return { a } }
  @Get('shaped') @HttpCode(202) @Header('x-shape', 'yes') shaped () { return { shaped: true } }
  @Get('own') own (@Res() reply: FastifyReply) { reply.code(203).send({ own: true }) }
  @Get('moved') @Redirect('/elsewhere', 301) moved () { return undefined }
  @Get('viewless') @HttpCode(201) async empty (): Promise<void> {}
}

@Controller({ path: 'scoped-shapes', scope: Scope.REQUEST })
class ScopedShapesController {
  readonly made = Symbol('one per request')
  @Get() @HttpCode(201) get () { return { scoped: typeof this.made } }
  @Get(':a') one (@Param('a', later('!')) a: string) { return { a } }
}

@Module({ controllers: [ShapesController, ScopedShapesController] })
class ShapesModule {}

test('every shape of handler gets its arguments and answers: none, one, piped, a gap, several, intercepted, shaped, @Res(), redirect, request-scoped', async (t) => {
  const app = await build(t, ShapesModule)
  const json = async (url: string) => { const res = await app.inject(url); return { status: res.statusCode, body: res.body === '' ? '' : res.json() } }
  assert.deepEqual(await json('/shapes/none'), { status: 200, body: { none: true } })
  assert.deepEqual(await json('/shapes/one/x'), { status: 200, body: { a: 'x' } })
  assert.deepEqual(await json('/shapes/piped/x'), { status: 200, body: { a: 'x!' } })
  assert.deepEqual(await json('/shapes/gap/y'), { status: 200, body: { first: 'undefined', b: 'y' } })
  assert.deepEqual(await json('/shapes/many/x/y?q=z'), { status: 200, body: { a: 'x', q: 'z', b: 'y!' } })
  assert.deepEqual(await json('/shapes/intercepted/x'), { status: 200, body: { around: { a: 'x!' } } })
  const shaped = await app.inject('/shapes/shaped')
  assert.deepEqual([shaped.statusCode, shaped.headers['x-shape'], shaped.json()], [202, 'yes', { shaped: true }])
  assert.deepEqual(await json('/shapes/own'), { status: 203, body: { own: true } })
  const moved = await app.inject('/shapes/moved')
  assert.deepEqual([moved.statusCode, moved.headers.location], [301, '/elsewhere'])
  assert.deepEqual(await json('/shapes/viewless'), { status: 201, body: '' })
  assert.deepEqual(await json('/scoped-shapes'), { status: 201, body: { scoped: 'symbol' } })
  assert.deepEqual(await json('/scoped-shapes/x'), { status: 200, body: { a: 'x!' } })
})

test('a context read as NestJS\'s other kinds gives the same arguments by position: switchToRpc() and switchToWs()', async (t) => {
  let seen: Record<string, unknown> = {}
  @Controller('hosts')
  class HostsController {
    @Get()
    @UseGuards({
      canActivate (ctx: ExecutionContext) {
        const rpc = ctx.switchToRpc()
        const ws = ctx.switchToWs()
        const [request, reply] = ctx.getArgs()
        seen = {
          type: ctx.getType(),
          rpcData: rpc.getData() === request,
          rpcContext: rpc.getContext() === reply,
          wsClient: ws.getClient() === request,
          wsData: ws.getData() === reply,
          wsPattern: ws.getPattern(),
          handler: ctx.getHandler().name
        }
        return true
      }
    })
    list () { return 'ok' }
  }
  @Module({ controllers: [HostsController] })
  class HostsModule {}
  const app = await build(t, HostsModule)
  assert.equal((await app.inject('/hosts')).body, 'ok')
  assert.deepEqual(seen, { type: 'http', rpcData: true, rpcContext: true, wsClient: true, wsData: true, wsPattern: undefined, handler: 'list' })
})
