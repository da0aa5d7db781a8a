import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import fastifyView from '@fastify/view'
import ejs from 'ejs'
import { Eta } from 'eta'
import {
  decoratorPlugin, Module, Controller, Get, Post, Render, HttpCode, Header, Res, Query, UseGuards, UseInterceptors, UseFilters,
  type ArgumentsHost, type CallHandler, type CanActivate, type DecoratorPluginOptions, type ExceptionFilter, type ExecutionContext,
  type NestInterceptor, type Response
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const root = fileURLToPath(new URL('../fixtures/views', import.meta.url))
const html = 'text/html; charset=utf-8'

@Controller('pages')
class PagesController {
  @Get() @Render('index') index () { return { title: 'Cats', items: ['Tom', 'Felix'] } }
  @Get('with-extension') @Render('index.ejs') withExtension () { return { title: 'Dogs', items: [] } }
  @Get('async') @Render('index') async later () { return { title: 'Later', items: ['x'] } }
  @Post() @HttpCode(202) @Header('x-rendered', 'yes') @Header('cache-control', 'no-store') @Render('index') create () {
    return { title: 'Created', items: [] }
  }

  @Get('res') @Render('index') withRes (@Res() reply: Response) { return { title: `status ${reply.statusCode}`, items: [] } }
  @Get('missing') @Render('nowhere') missing () { return {} }
  @Get('broken') @Render('broken') broken () { return {} }
}

@Module({ controllers: [PagesController] })
class PagesModule {}

/** A ready app whose logger lines land in `logs`. */
async function logged (t: any, module: Function, options: Partial<DecoratorPluginOptions>, before?: (app: FastifyInstance) => unknown) {
  const logs: any[] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  if (before) await before(app)
  await app.register(decoratorPlugin, { ...options, module } as DecoratorPluginOptions)
  await app.ready()
  return { app, logs }
}

test('@Render renders the returned object with ejs; the view name may omit the default extension', async (t) => {
  const app = await build(t, PagesModule, { view: { engine: { ejs }, root } })
  const response = await app.inject('/pages')
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['content-type'], html)
  assert.equal(response.body, '<h1>Cats</h1>\n<ul><li>Tom</li><li>Felix</li></ul>\n')
  assert.equal((await app.inject('/pages/with-extension')).body, '<h1>Dogs</h1>\n<ul></ul>\n')
  assert.equal((await app.inject('/pages/async')).body, '<h1>Later</h1>\n<ul><li>x</li></ul>\n')
})

test('@Render composes with @HttpCode and @Header, and wins over @Res()', async (t) => {
  const app = await build(t, PagesModule, { view: { engine: { ejs }, root } })
  const response = await app.inject({ method: 'POST', url: '/pages' })
  assert.equal(response.statusCode, 202)
  assert.equal(response.headers['x-rendered'], 'yes')
  assert.equal(response.headers['cache-control'], 'no-store')
  assert.equal(response.headers['content-type'], html)
  assert.equal(response.body, '<h1>Created</h1>\n<ul></ul>\n')
  const res = await app.inject('/pages/res')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '<h1>status 200</h1>\n<ul></ul>\n')
})

@Controller('eta')
class EtaController {
  @Get() @Render('hello') hello (@Query('name') name: string) { return { name } }
  @Get('broken') @Render('broken') broken () { return {} }
}

@Module({ controllers: [EtaController] })
class EtaModule {}

test('@Render works with eta, without the extension', async (t) => {
  const { app, logs } = await logged(t, EtaModule, { view: { engine: { eta: new Eta() }, root } })
  const response = await app.inject('/eta?name=Ada')
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['content-type'], html)
  assert.equal(response.body, '<p>Hello Ada</p>\n')
  const broken = await app.inject('/eta/broken')
  assert.equal(broken.statusCode, 500)
  assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(logs.length, 1)
  assert.match(logs[0].err.message, /reading 'name'/)
  assert.equal((await app.inject('/eta?name=Bob')).body, '<p>Hello Bob</p>\n')
})

@Controller('ext')
class ExtController {
  @Get() @Render('page') page () { return { title: 'html file' } }
}

@Module({ controllers: [ExtController] })
class ExtModule {}

test('with a configured default extension (viewExt) the view name omits it', async (t) => {
  const app = await build(t, ExtModule, { view: { engine: { ejs }, root, viewExt: 'html' } })
  const response = await app.inject('/ext')
  assert.equal(response.statusCode, 200)
  assert.equal(response.body, '<p>ext html file</p>\n')
})

test('a missing template and a throwing template answer 500, are logged, and the server keeps serving', async (t) => {
  const { app, logs } = await logged(t, PagesModule, { view: { engine: { ejs }, root } })
  const missing = await app.inject('/pages/missing')
  assert.equal(missing.statusCode, 500)
  assert.deepEqual(missing.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(logs.length, 1)
  assert.equal(logs[0].err.code, 'ENOENT')
  const broken = await app.inject('/pages/broken')
  assert.equal(broken.statusCode, 500)
  assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(logs.length, 2)
  assert.match(logs[1].err.message, /missing is not defined/)
  assert.equal((await app.inject('/pages')).statusCode, 200)
})

class Allow implements CanActivate {
  canActivate (ctx: ExecutionContext) { return ctx.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-allow'] === 'yes' }
}

class Shout implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    const data = await next.handle()
    return { ...data, title: data.title.toUpperCase(), items: [...data.items, 'added'] }
  }
}

@Controller('guarded')
@UseGuards(Allow)
class GuardedController {
  @Get() @UseInterceptors(Shout) @Render('index') page () { return { title: 'quiet', items: ['a'] } }
}

@Module({ controllers: [GuardedController] })
class GuardedModule {}

test('@Render composes with guards and interceptors: the interceptor maps the data before render', async (t) => {
  const app = await build(t, GuardedModule, { view: { engine: { ejs }, root } })
  const denied = await app.inject('/guarded')
  assert.equal(denied.statusCode, 403)
  assert.deepEqual(denied.json(), { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
  const allowed = await app.inject({ url: '/guarded', headers: { 'x-allow': 'yes' } })
  assert.equal(allowed.statusCode, 200)
  assert.equal(allowed.headers['content-type'], html)
  assert.equal(allowed.body, '<h1>QUIET</h1>\n<ul><li>a</li><li>added</li></ul>\n')
})

function filterAt (level: string): ExceptionFilter {
  return {
    catch (exception: Error, host: ArgumentsHost) {
      host.switchToHttp().getResponse<Response>().code(500).send({ level, error: exception.message })
    }
  }
}

@Controller('filtered')
@UseFilters(filterAt('controller'))
class FilteredController {
  @Get('handler') @UseFilters(filterAt('handler')) @Render('broken') handler () { return {} }
  @Get('controller') @Render('nowhere') controller () { return {} }
}

@Controller('unfiltered')
class UnfilteredController {
  @Get() @Render('broken') page () { return {} }
}

@Module({ controllers: [FilteredController, UnfilteredController] })
class FilteredModule {}

test('render errors reach exception filters at handler, controller and global level', async (t) => {
  const app = await build(t, FilteredModule, { view: { engine: { ejs }, root }, globalFilters: [filterAt('global')] })
  const handler = await app.inject('/filtered/handler')
  assert.equal(handler.statusCode, 500)
  assert.equal(handler.json().level, 'handler')
  assert.match(handler.json().error, /missing is not defined/)
  const controller = await app.inject('/filtered/controller')
  assert.equal(controller.json().level, 'controller')
  assert.match(controller.json().error, /ENOENT/)
  const global = await app.inject('/unfiltered')
  assert.equal(global.json().level, 'global')
  assert.match(global.json().error, /missing is not defined/)
})

@Controller('who')
class WhoController {
  @Get() @Render('who') who () { return {} }
}

@Module({ controllers: [WhoController] })
class WhoModule {}

test('an app\'s own @fastify/view is used as it is, even when the view option is given', async (t) => {
  const own = await build(t, WhoModule, {}, (app) => app.register(fastifyView, { engine: { ejs }, root, defaultContext: { who: 'the app' } }))
  assert.equal((await own.inject('/who')).body, '<p>from the app</p>\n')
  const both = await build(t, WhoModule, { view: { engine: { ejs }, root, defaultContext: { who: 'the option' } } },
    (app) => app.register(fastifyView, { engine: { ejs }, root, defaultContext: { who: 'the app' } }))
  assert.equal((await both.inject('/who')).body, '<p>from the app</p>\n')
})

test('the view option registers @fastify/view inside the plugin only: the app\'s own routes get no reply.view', async (t) => {
  const app = await build(t, WhoModule, { view: { engine: { ejs }, root, defaultContext: { who: 'the option' } } },
    (app) => app.get('/plain', async (request, reply) => typeof (reply as any).view))
  assert.equal((await app.inject('/who')).body, '<p>from the option</p>\n')
  assert.equal((await app.inject('/plain')).body, 'undefined')
  assert.equal(app.hasReplyDecorator('view'), false)
})

test('a @Render route with no view engine fails registration, naming the handler and both fixes', async () => {
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: WhoModule }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_VIEW_NOT_CONFIGURED')
    assert.match(error.message, /WhoController\.who uses @Render\(\)/)
    assert.match(error.message, /plugin option view: \{ engine: \{ ejs \}, root: viewsDir \}/)
    assert.match(error.message, /register @fastify\/view on the app before this plugin/)
    return true
  })
  assert.equal(app.hasDecorator('container'), false, 'nothing is registered')
  await app.close()
})

test('an app without @Render routes needs no view engine', async (t) => {
  const app = await build(t, NoRenderModule())
  assert.equal((await app.inject('/plain-json')).body, '{"ok":true}')
})

function NoRenderModule () {
  @Controller('plain-json')
  class NoRender { @Get() get () { return { ok: true } } }
  @Module({ controllers: [NoRender] })
  class Plain {}
  return Plain
}

test('the view option must be an object of @fastify/view options', async () => {
  for (const view of ['ejs', null, [1]]) {
    const app = Fastify()
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: WhoModule, view } as any).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
      assert.match(error.message, /decoratorPlugin option "view" must be an object of @fastify\/view options/)
      return true
    })
    await app.close()
  }
})
