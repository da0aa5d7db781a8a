import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  Module, Global, Controller, Get, Post, Param, Req, Injectable, Inject, Scope, REQUEST, Catch, UseFilters,
  ForbiddenException, RequestMethod, type NestMiddleware, type NestModule, type MiddlewareConsumer,
  type ExceptionFilter, type ArgumentsHost, type Request
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { effectiveHooks } from '../helpers/routes.js'
import { registrationError } from '../helpers/registration.js'

@Injectable()
class Tagger {
  readonly tag = 'tagged'
}

@Injectable()
class TagMiddleware implements NestMiddleware {
  constructor (@Inject(Tagger) private readonly tagger: Tagger) {}
  use (req: IncomingMessage & Record<string, any>, res: ServerResponse, next: () => void) {
    req.tags = [...(req.tags ?? []), this.tagger.tag]
    res.setHeader('x-tag', this.tagger.tag)
    next()
  }
}

function mark (name: string) {
  const fn = (req: IncomingMessage & Record<string, any>, res: ServerResponse, next: () => void) => {
    req.tags = [...(req.tags ?? []), name]
    next()
  }
  Object.defineProperty(fn, 'name', { value: name })
  return fn
}

const tagsOf = (request: Request) => (request.raw as unknown as { tags?: string[] }).tags ?? []

@Controller('cats')
class CatsController {
  @Get() all (@Req() request: Request) { return tagsOf(request) }
  @Post() create (@Req() request: Request) { return tagsOf(request) }
  @Get(':id') one (@Req() request: Request) { return tagsOf(request) }
}

@Controller('dogs')
class DogsController {
  @Get() all (@Req() request: Request) { return tagsOf(request) }
  @Get('deep/er') deeper (@Req() request: Request) { return tagsOf(request) }
}

test('a NestMiddleware class, built through DI, runs on the matching routes with Node\'s request and response', async (t) => {
  const seen: Record<string, unknown> = {}
  @Injectable()
  class Inspect implements NestMiddleware {
    use (req: any, res: any, next: () => void) {
      Object.assign(seen, { req, res, originalUrl: req.originalUrl, id: req.id, hasLog: typeof req.log?.info === 'function' })
      next()
    }
  }
  @Module({ controllers: [CatsController, DogsController], providers: [Tagger] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer.apply(TagMiddleware, Inspect).forRoutes('cats')
    }
  }
  const raw: Record<string, unknown> = {}
  const app = await build(t, AppModule, {}, (app) => {
    app.get('/plain', async (request) => tagsOf(request as Request))
    app.addHook('onResponse', async (request, reply) => { Object.assign(raw, { req: request.raw, res: reply.raw }) })
  })
  const res = await app.inject('/cats?x=1')
  assert.deepEqual(res.json(), ['tagged'])
  assert.equal(res.headers['x-tag'], 'tagged')
  // Node's objects (under inject(), light-my-request's stand-ins), as middie hands them to NestJS middleware.
  assert.equal(seen.req, raw.req)
  assert.deepEqual(seen, { ...raw, originalUrl: '/cats?x=1', id: 'req-1', hasLog: true })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/cats' })).json(), ['tagged'])
  // 'cats' is the path itself: sub-paths, other controllers and plain routes run nothing.
  assert.deepEqual((await app.inject('/cats/1')).json(), [])
  assert.deepEqual((await app.inject('/dogs')).json(), [])
  assert.deepEqual((await app.inject('/plain')).json(), [])
  // Besides the test's own onResponse hook, only the matching routes have a hook.
  assert.deepEqual(effectiveHooks(app, '/dogs (GET)'), ['(onResponse) ["anonymous()"]'])
  assert.deepEqual(effectiveHooks(app, '/plain (GET)'), ['(onResponse) ["anonymous()"]'])
  assert.deepEqual(effectiveHooks(app, '/cats (GET, POST)'), ['(onRequest) ["fdpMiddleware()"]', '(onResponse) ["anonymous()"]'])
})

test('forRoutes takes controllers, wildcards and { path, method }; exclude() takes paths and { path, method }', async (t) => {
  @Module({ controllers: [CatsController, DogsController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer
        .apply(mark('controller')).forRoutes(DogsController)
        .apply(mark('wildcard')).exclude({ path: 'cats', method: RequestMethod.POST }).forRoutes('cats/*', 'cats')
        .apply(mark('post')).forRoutes({ path: 'cats', method: RequestMethod.POST })
        .apply(mark('everything')).exclude('dogs/{*rest}').forRoutes('*')
        .apply(mark('one cat')).forRoutes('cats/7')
    }
  }
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/dogs')).json(), ['controller'])
  assert.deepEqual((await app.inject('/dogs/deep/er')).json(), ['controller'])
  assert.deepEqual((await app.inject('/cats')).json(), ['wildcard', 'everything'])
  assert.deepEqual((await app.inject({ method: 'POST', url: '/cats' })).json(), ['post', 'everything'])
  // cats/7 is decided per request on the route cats/:id.
  assert.deepEqual((await app.inject('/cats/3')).json(), ['wildcard', 'everything'])
  assert.deepEqual((await app.inject('/cats/7')).json(), ['wildcard', 'everything', 'one cat'])
  assert.deepEqual((await app.inject('/cats/%37')).json(), ['wildcard', 'everything', 'one cat'])
})

test('paths are relative to the prefix; middleware of global modules runs first, then from the root down', async (t) => {
  @Global()
  @Module({})
  class SharedModule implements NestModule {
    configure (consumer: MiddlewareConsumer) { consumer.apply(mark('global')).forRoutes('cats') }
  }
  @Module({ controllers: [CatsController] })
  class CatsModule implements NestModule {
    configure (consumer: MiddlewareConsumer) { consumer.apply(mark('feature')).forRoutes('cats') }
  }
  @Module({ imports: [CatsModule, SharedModule] })
  class AppModule implements NestModule {
    async configure (consumer: MiddlewareConsumer) {
      await new Promise((resolve) => setImmediate(resolve))
      consumer.apply(mark('root 1'), mark('root 2')).forRoutes(CatsController)
    }
  }
  const app = await build(t, AppModule, { prefix: '/api' })
  assert.deepEqual((await app.inject('/api/cats')).json(), ['global', 'root 1', 'root 2', 'feature'])
})

test('a middleware that answers ends the request; the handler does not run', async (t) => {
  let handled = false
  @Controller('stop')
  class StopController {
    @Get() get () { handled = true; return 'handler' }
  }
  @Module({ controllers: [StopController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer.apply((req: IncomingMessage, res: ServerResponse, next: () => void) => { res.end('from middleware'); next() }, mark('never')).forRoutes(StopController)
    }
  }
  const app = await build(t, AppModule)
  const res = await app.inject('/stop')
  assert.equal(res.body, 'from middleware')
  assert.equal(handled, false)
})

test('errors thrown, rejected or passed to next(err) go through the exception filters', async (t) => {
  class Teapot extends Error {}
  @Catch(Teapot)
  class TeapotFilter implements ExceptionFilter {
    catch (exception: Teapot, host: ArgumentsHost) { host.switchToHttp().getResponse().code(418).send({ filtered: exception.message }) }
  }
  @Controller('fail')
  @UseFilters(TeapotFilter)
  class FailController {
    @Get('throw') throws () { return 'unreached' }
    @Get('reject') rejects () { return 'unreached' }
    @Get('next') nexts () { return 'unreached' }
    @Get('http') http () { return 'unreached' }
  }
  @Module({ controllers: [FailController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer
        .apply(() => { throw new Teapot('thrown') }).forRoutes('fail/throw')
        .apply(async () => { throw new Teapot('rejected') }).forRoutes('fail/reject')
        .apply((req: unknown, res: unknown, next: (error?: unknown) => void) => next(new Teapot('passed'))).forRoutes('fail/next')
        .apply((req: unknown, res: unknown, next: (error?: unknown) => void) => next(new ForbiddenException('no entry'))).forRoutes('fail/http')
    }
  }
  const app = await build(t, AppModule)
  for (const [url, message] of [['/fail/throw', 'thrown'], ['/fail/reject', 'rejected'], ['/fail/next', 'passed']]) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 418, url)
    assert.deepEqual(res.json(), { filtered: message })
  }
  const forbidden = await app.inject('/fail/http')
  assert.equal(forbidden.statusCode, 403)
  assert.deepEqual(forbidden.json(), { statusCode: 403, message: 'no entry', error: 'Forbidden' })
})

test('a failure after next() is logged and leaves the answer alone', async (t) => {
  const logs: any[] = []
  @Module({ controllers: [CatsController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer.apply(async (req: unknown, res: unknown, next: () => void) => { next(); throw new Error('late') }).forRoutes('cats')
    }
  }
  const { default: Fastify } = await import('fastify')
  const { decoratorPlugin } = await import('../../plugin/index.js')
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AppModule })
  const res = await app.inject('/cats')
  assert.equal(res.statusCode, 200)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(logs.length, 1)
  assert.match(logs[0].msg, /failed after calling next\(\)/)
  assert.equal(logs[0].err.message, 'late')
})

test('a request-scoped middleware class is built for each request', async (t) => {
  @Injectable({ scope: Scope.REQUEST })
  class PerRequest implements NestMiddleware {
    constructor (@Inject(REQUEST) private readonly request: Request) {}
    use (req: IncomingMessage & Record<string, any>, res: unknown, next: () => void) {
      req.tags = [`for ${this.request.id}`]
      next()
    }
  }
  @Module({ controllers: [CatsController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) { consumer.apply(PerRequest).forRoutes(CatsController) }
  }
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/cats')).json(), ['for req-1'])
  assert.deepEqual((await app.inject('/cats')).json(), ['for req-2'])
})

test('bad middleware declarations fail registration, naming the module and the fix', async () => {
  class NoUse {}
  const cases: Array<[(consumer: MiddlewareConsumer) => unknown, RegExp]> = [
    [(consumer) => consumer.apply(NoUse).forRoutes('cats'), /AppModule\.configure\(\): apply\(\) entry 0 is the class NoUse, which has no use\(\) method/],
    [(consumer) => consumer.apply(42 as any).forRoutes('cats'), /apply\(\) entry 0 is number 42/],
    [(consumer) => consumer.apply(mark('x')).forRoutes(Tagger), /forRoutes\(\) entry 0 is the class Tagger, which is not a @Controller\(\)/],
    [(consumer) => consumer.apply(mark('x')).forRoutes({ path: 'cats' } as any), /forRoutes\(\) entry 0 is an object with keys \[path\]/],
    [(consumer) => consumer.apply(mark('x')).forRoutes('cats/*/x'), /wildcard in "cats\/\*\/x" must be its last segment/],
    [(consumer) => consumer.apply(mark('x')).exclude('ca(t)s').forRoutes('cats'), /segment "ca\(t\)s" is not supported/]
  ]
  for (const [configure, message] of cases) {
    @Module({ controllers: [CatsController] })
    class AppModule { configure (consumer: MiddlewareConsumer) { return configure(consumer) } }
    const error = await registrationError({ module: AppModule })
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION', String(message))
    assert.match(error.message, message)
  }
})

test('routes with a constraint or a route wildcard match as their requests do', async (t) => {
  @Controller('files')
  class FilesController {
    @Get('*') any (@Req() request: Request, @Param('*') rest: string) { return { rest, tags: tagsOf(request) } }
  }
  @Module({ controllers: [FilesController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer.apply(mark('images')).forRoutes('files/images/{*path}').apply(mark('files')).forRoutes('files')
    }
  }
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/files/images/a.png')).json(), { rest: 'images/a.png', tags: ['images'] })
  assert.deepEqual((await app.inject('/files/docs/a.txt')).json(), { rest: 'docs/a.txt', tags: [] })
  assert.deepEqual((await app.inject('/files/')).json(), { rest: '', tags: ['files'] })
})

test('patterns as NestJS on Fastify reads them: named and legacy wildcards, { path, method } with its method only, a controller, exclude with method -1, percent-encoded paths', async (t) => {
  const answer = (value: string) => {
    const middleware = (req: IncomingMessage, res: ServerResponse) => { res.end(value) }
    return middleware
  }
  @Controller()
  class WildController {
    @Get('named/deep') named () { return 'handler' }
    @Get('legacy/deep') legacy () { return 'handler' }
    @Get('listed/only') listed () { return 'handler' }
    @Post('listed/only') post () { return 'handler' }
    @Get('plain') plain () { return 'handler' }
  }
  @Controller('kept')
  class KeptController { @Get() kept () { return 'kept handler' } }
  @Module({ controllers: [WildController, KeptController] })
  class AppModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer
        .apply(answer('post only')).forRoutes({ path: 'listed/only', method: RequestMethod.POST })
        .apply(answer('wildcard')).forRoutes('named/*rest', 'legacy/(.*)', 'listed/*')
        .apply((req: IncomingMessage, res: ServerResponse, next: () => void) => next()).forRoutes(KeptController)
        .apply(answer('controller')).forRoutes(WildController)
        .apply(answer('everything')).exclude({ path: 'kept', method: -1 as RequestMethod }).forRoutes('*')
    }
  }
  const app = await build(t, AppModule)
  const body = async (method: 'GET' | 'POST', url: string) => (await app.inject({ method, url })).body
  assert.equal(await body('GET', '/named/deep'), 'wildcard')
  assert.equal(await body('GET', '/legacy/deep'), 'wildcard')
  assert.equal(await body('GET', '/listed/only'), 'wildcard', 'a POST-only configuration skips GET')
  assert.equal(await body('POST', '/listed/only'), 'post only')
  assert.equal(await body('POST', '/listed/%6Fnly'), 'post only', 'an encoded character is the same path')
  assert.equal(await body('GET', '/plain'), 'controller')
  assert.equal(await body('GET', '/kept'), 'kept handler', 'excluded for every method')
})

test('under URI versioning with a defaultVersion, a path given without a version matches the routes served under it too, as in NestJS', async (t) => {
  @Controller('cats')
  class UnversionedCats {
    @Get() list (@Req() request: Request) { return tagsOf(request) }
  }
  @Controller({ path: 'cats', version: '2' })
  class CatsV2 {
    @Get() list (@Req() request: Request) { return tagsOf(request) }
  }
  @Module({ controllers: [UnversionedCats, CatsV2] })
  class VersionedModule implements NestModule {
    configure (consumer: MiddlewareConsumer) {
      consumer.apply(mark('cats')).forRoutes('cats')
      consumer.apply(mark('v2')).forRoutes({ path: 'cats', method: RequestMethod.GET, version: '2' })
    }
  }
  const app = await build(t, VersionedModule, { prefix: 'api', versioning: { type: 'uri', defaultVersion: ['1', '3'] } })
  assert.deepEqual((await app.inject('/api/v1/cats')).json(), ['cats'])
  assert.deepEqual((await app.inject('/api/v3/cats')).json(), ['cats'])
  assert.deepEqual((await app.inject('/api/v2/cats')).json(), ['v2'])
})
