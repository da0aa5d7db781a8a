import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Controller, Get, Post, Body, Req, Hook, Injectable, Inject, Scope, REQUEST, UseFilters, Catch,
  UnauthorizedException, type ArgumentsHost, type ExceptionFilter, type Request, type Response
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

type Tagged = Request & { tags?: string[] }
const tag = (req: Request, value: string) => { ((req as Tagged).tags ??= []).push(value) }

@Injectable()
class Tokens {
  readonly valid = new Set(['secret'])
}

@Injectable()
class AuthHook {
  readonly seen: string[] = []
  constructor (@Inject(Tokens) private readonly tokens: Tokens) {}

  @Hook('onRequest')
  check (req: Request) {
    tag(req, 'module:onRequest')
    if (!this.tokens.valid.has(req.headers.authorization ?? '')) throw new UnauthorizedException('Bad token')
  }

  @Hook('onResponse')
  done (req: Request, reply: Response) { this.seen.push(`${req.url} ${reply.statusCode}`) }
}

@Controller('cats')
class CatsController {
  @Hook('preHandler')
  pre (req: Request) { tag(req, `controller:preHandler:${this.constructor.name}`) }

  @Hook('onSend')
  send (req: Request, reply: Response, payload: string) {
    reply.header('x-payload-length', String(payload.length))
    return payload.replace('"tags"', '"labels"')
  }

  @Get() list (@Req() req: Tagged) { return { tags: req.tags } }
}

@Controller('dogs')
class DogsController {
  @Get() list (@Req() req: Tagged) { return { tags: req.tags ?? [] } }
}

@Module({ controllers: [CatsController, DogsController], providers: [Tokens, AuthHook], exports: [AuthHook] })
class PetsModule {}

@Controller('open')
class OpenController {
  @Get() get (@Req() req: Tagged) { return { tags: req.tags ?? [] } }
}

@Module({ imports: [PetsModule], controllers: [OpenController] })
class AppModule {}

const auth = { authorization: 'secret' }

test('a provider\'s @Hook applies to its module\'s controllers, resolved through DI', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.get('/plain', async (req) => ({ tags: (req as Tagged).tags ?? [] })))
  const dogs = await app.inject({ url: '/dogs', headers: auth })
  assert.equal(dogs.statusCode, 200)
  assert.deepEqual(dogs.json(), { tags: ['module:onRequest'] })
  const denied = await app.inject('/dogs')
  assert.equal(denied.statusCode, 401)
  assert.deepEqual(denied.json(), { statusCode: 401, message: 'Bad token', error: 'Unauthorized' })
  // Another module (even one importing the provider) and plain routes are untouched.
  assert.deepEqual((await app.inject('/open')).json(), { tags: [] })
  assert.deepEqual((await app.inject('/plain')).json(), { tags: [] })
  assert.deepEqual(app.container.get(AuthHook).seen, ['/dogs 200', '/dogs 401'])
})

test('a controller\'s @Hook applies to that controller only; onSend may replace the payload', async (t) => {
  const app = await build(t, AppModule)
  const cats = await app.inject({ url: '/cats', headers: auth })
  assert.equal(cats.statusCode, 200)
  // Module hooks run before controller hooks, as Fastify runs a parent's hooks first.
  assert.deepEqual(cats.json(), { labels: ['module:onRequest', 'controller:preHandler:CatsController'] })
  assert.equal(cats.headers['x-payload-length'], String('{"tags":["module:onRequest","controller:preHandler:CatsController"]}'.length))
  const dogs = await app.inject({ url: '/dogs', headers: auth })
  assert.deepEqual(dogs.json(), { tags: ['module:onRequest'] })
  assert.equal(dogs.headers['x-payload-length'], undefined)
})

test('errors thrown by hooks reach the exception filters, else the built-in handler', async (t) => {
  @Catch(TypeError)
  class TypeErrorFilter implements ExceptionFilter {
    catch (error: TypeError, host: ArgumentsHost) { host.switchToHttp().getResponse<Response>().code(422).send({ filtered: error.message }) }
  }
  @Controller('filtered')
  @UseFilters(TypeErrorFilter)
  class FilteredController {
    @Hook('preValidation')
    check (req: Request) {
      if (req.headers['x-fail'] === 'type') throw new TypeError('typed')
      if (req.headers['x-fail'] === 'plain') throw new Error('plain')
      if (req.headers['x-fail'] === 'value') throw 'a string' // eslint-disable-line no-throw-literal
    }

    @Post() post (@Body() body: unknown) { return body }
  }
  @Module({ controllers: [FilteredController] })
  class FilteredModule {}
  const app = await build(t, FilteredModule)
  const post = (fail: string) => app.inject({ method: 'POST', url: '/filtered', headers: { 'x-fail': fail }, payload: { a: 1 } })
  assert.deepEqual((await post('none')).json(), { a: 1 })
  const typed = await post('type')
  assert.equal(typed.statusCode, 422)
  assert.deepEqual(typed.json(), { filtered: 'typed' })
  for (const fail of ['plain', 'value']) {
    const res = await post(fail)
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, message: 'Internal server error' })
  }
  assert.deepEqual((await post('none')).json(), { a: 1 })
})

test('onError and preSerialization hooks get Fastify\'s arguments', async (t) => {
  const errors: string[] = []
  @Controller('args')
  class ArgsController {
    @Hook('preSerialization')
    wrap (req: Request, reply: Response, payload: unknown) { return { wrapped: payload } }

    @Hook('onError')
    failed (req: Request, reply: Response, error: Error) { errors.push(`${req.url}: ${error.message}`) }

    @Get() ok () { return { ok: true } }
    @Get('boom') boom () { throw new Error('boom') }
  }
  @Module({ controllers: [ArgsController] })
  class ArgsModule {}
  const app = await build(t, ArgsModule)
  assert.deepEqual((await app.inject('/args')).json(), { wrapped: { ok: true } })
  assert.equal((await app.inject('/args/boom')).statusCode, 500)
  assert.deepEqual(errors, ['/args/boom: boom'])
})

test('a request-scoped provider with @Hook is resolved per request, the same instance the handler gets', async (t) => {
  let made = 0
  @Injectable({ scope: Scope.REQUEST })
  class RequestState {
    readonly id = ++made
    constructor (@Inject(REQUEST) readonly request: Request) {}
    @Hook('onRequest')
    mark (req: Request) { assert.equal(req, this.request); tag(req, `state:${this.id}`) }
  }
  @Controller('state')
  class StateController {
    constructor (@Inject(RequestState) private readonly state: RequestState) {}
    @Get() get (@Req() req: Tagged) { return { tags: req.tags, id: this.state.id } }
  }
  @Module({ controllers: [StateController], providers: [RequestState] })
  class StateModule {}
  const app = await build(t, StateModule)
  assert.deepEqual((await app.inject('/state')).json(), { tags: ['state:1'], id: 1 })
  assert.deepEqual((await app.inject('/state')).json(), { tags: ['state:2'], id: 2 })
})

test('hooks are inherited by subclasses and run in declaration order', async (t) => {
  class BaseController {
    @Hook('onRequest') first (req: Request) { tag(req, 'base') }
  }
  @Controller('child')
  class ChildController extends BaseController {
    @Hook('onRequest') second (req: Request) { tag(req, 'child') }
    @Get() get (@Req() req: Tagged) { return req.tags }
  }
  @Module({ controllers: [ChildController] })
  class ChildModule {}
  const app = await build(t, ChildModule)
  assert.deepEqual((await app.inject('/child')).json(), ['base', 'child'])
})

test('@Hook() rejects unknown names, application hooks and static methods when the class is declared', () => {
  assert.throws(() => {
    class Bad { @Hook('onFoo' as any) x () {} }
    return Bad
  }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, /@Hook\("onFoo"\) on Bad\.x: not a Fastify request hook\. Use one of onRequest, preParsing/)
    return true
  })
  assert.throws(() => {
    class Closing { @Hook('onClose' as any) x () {} }
    return Closing
  }, /"onClose" is an application hook, not a request hook; use onModuleInit\(\)\/onModuleDestroy\(\)/)
  assert.throws(() => {
    class Static { @Hook('onRequest') static x () {} }
    return Static
  }, /@Hook\('onRequest'\) on Static\.x: the method is static/)
})

test('a transient provider with @Hook gets one instance for its hooks', async (t) => {
  let made = 0
  @Injectable({ scope: Scope.TRANSIENT })
  class Counter {
    readonly id = ++made
    count = 0
    @Hook('onRequest') mark (req: Request) { tag(req, `counter:${this.id}:${++this.count}`) }
  }
  @Controller('count')
  class CountController { @Get() get (@Req() req: Tagged) { return req.tags } }
  @Module({ controllers: [CountController], providers: [Counter] })
  class CountModule {}
  const app = await build(t, CountModule)
  const first = (await app.inject('/count')).json()
  const second = (await app.inject('/count')).json()
  assert.equal(first[0].split(':')[1], second[0].split(':')[1])
  assert.deepEqual([first[0].split(':')[2], second[0].split(':')[2]], ['1', '2'])
})
