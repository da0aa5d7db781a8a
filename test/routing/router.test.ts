import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type InjectOptions } from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Post, Put, Patch, Delete, Options, Head, All, Param, Res, RouteConstraints, Version, type Response, type Type } from '../../plugin/index.js'
import { routeShape } from '../../plugin/routing/route-checks.js'
import { joinPath } from '../../plugin/util/paths.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'
import { captureLogs } from '../robustness/helpers.js'

async function registerFails (module: Type): Promise<void> {
  const app = Fastify()
  try {
    await app.register(decoratorPlugin, { module }).ready()
  } finally {
    await app.close()
  }
}

test('every method decorator registers a real route with that method', async (t) => {
  @Controller('m')
  class Methods {
    @Get() get () { return 'get' }
    @Post() post () { return 'post' }
    @Put() put () { return 'put' }
    @Patch() patch () { return 'patch' }
    @Delete() del () { return 'delete' }
    @Options() options () { return 'options' }
    @Head('h') head (@Res() res: Response) { res.header('x-head', 'yes').send() }
  }
  @Module({ controllers: [Methods] })
  class AppModule {}

  const app = await build(t, AppModule)
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    const res = await app.inject({ method, url: '/m' })
    assert.equal(res.statusCode, method === 'POST' ? 201 : 200, method)
    assert.equal(res.body, method === 'DELETE' ? 'delete' : method.toLowerCase())
  }
  const head = await app.inject({ method: 'HEAD', url: '/m/h' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['x-head'], 'yes')
  assert.equal((await app.inject({ method: 'GET', url: '/m/h' })).statusCode, 404)
})

test('routes are real Fastify routes, listed by printRoutes()', async (t) => {
  @Controller('cats')
  class Cats {
    @Get() all () { return [] }
    @Get(':id') one (@Param('id') id: string) { return { id } }
    @Post() create () { return {} }
  }
  @Module({ controllers: [Cats] })
  class AppModule {}

  const seen: string[] = []
  const app = await build(t, AppModule, {}, (app) => {
    app.addHook('onRoute', (route) => { seen.push(`${route.method} ${route.url}`) })
    app.get('/legacy', async () => 'plain')
  })
  assert.deepEqual(seen.filter((route) => route.includes('cats')), ['GET /cats', 'HEAD /cats', 'GET /cats/:id', 'HEAD /cats/:id', 'POST /cats'])
  const tree = app.printRoutes({ commonPrefix: false })
  assert.match(tree, /── \/cats \(GET, HEAD, POST\)\n\s+└── \/:id \(GET, HEAD\)\n/)
  assert.match(tree, /── \/legacy \(GET, HEAD\)\n/)
  assert.equal(app.hasRoute({ method: 'GET', url: '/cats/:id' }), true)
  assert.deepEqual((await app.inject('/cats/7')).json(), { id: '7' })
})

test('paths join with single slashes, whatever slashes the pieces carry', async (t) => {
  assert.equal(joinPath('/api/', '/cats/', '/:id/'), '/api/cats/:id')
  assert.equal(joinPath('api', 'cats', ':id'), '/api/cats/:id')
  assert.equal(joinPath('', '/', ''), '')
  assert.equal(joinPath('//a//b//'), '/a/b')

  @Controller('/slashed/')
  class Slashed {
    @Get('/one/') one () { return 'one' }
    @Get() root () { return 'root' }
  }
  @Controller()
  class Bare {
    @Get() root () { return 'bare' }
    @Get('two') two () { return 'two' }
  }
  @Module({ controllers: [Slashed, Bare] })
  class AppModule {}

  const plain = await build(t, AppModule)
  assert.equal((await plain.inject('/')).body, 'bare')
  assert.equal((await plain.inject('/two')).body, 'two')
  assert.equal((await plain.inject('/slashed/one')).body, 'one')
  assert.equal((await plain.inject('/slashed')).body, 'root')
  // No trailing slash is added to a controller's root route: that stays the app's setting.
  assert.equal((await plain.inject('/slashed/')).statusCode, 404)
  assert.equal((await plain.inject('//slashed//one')).statusCode, 404)

  const prefixed = await build(t, AppModule, { prefix: '/api/' })
  assert.equal((await prefixed.inject('/api')).body, 'bare')
  assert.equal((await prefixed.inject('/api/two')).body, 'two')
  assert.equal((await prefixed.inject('/api/slashed')).body, 'root')
  assert.equal((await prefixed.inject('/api/slashed/one')).body, 'one')
  assert.equal((await prefixed.inject('/api/slashed/')).statusCode, 404)
  assert.equal((await prefixed.inject('/slashed')).statusCode, 404)
  assert.equal((await prefixed.inject('/two')).statusCode, 404)
})

test('a controller root route follows the app\'s ignoreTrailingSlash setting', async (t) => {
  @Controller('cats')
  class Cats { @Get() all () { return 'all' } }
  @Module({ controllers: [Cats] })
  class AppModule {}

  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AppModule, prefix: 'api' })
  assert.equal((await app.inject('/api/cats')).body, 'all')
  assert.equal((await app.inject('/api/cats/')).body, 'all')
})

test('prefixTrailingSlash: a controller root route answers without, with, or with and without the slash', async (t) => {
  @Controller('cats')
  class Cats {
    @Get() all () { return 'all' }
    @Post() create () { return 'created' }
    @Get('list') list () { return 'list' }
  }
  @Controller({ path: 'dogs', prefixTrailingSlash: 'no-slash' })
  class Dogs { @Get() all () { return 'dogs' } }
  @Module({ controllers: [Cats, Dogs] })
  class AppModule {}

  const status = async (app: Awaited<ReturnType<typeof build>>, url: string, method: 'GET' | 'POST' = 'GET') => (await app.inject({ method, url })).statusCode
  const unchanged = await build(t, AppModule, { prefix: '/api' })
  assert.deepEqual([await status(unchanged, '/api/cats'), await status(unchanged, '/api/cats/')], [200, 404])

  const both = await build(t, AppModule, { prefix: '/api', prefixTrailingSlash: 'both' })
  assert.equal((await both.inject('/api/cats/')).body, 'all')
  assert.deepEqual([await status(both, '/api/cats'), await status(both, '/api/cats/'), await status(both, '/api/cats/', 'POST')], [200, 200, 201])
  assert.equal((await both.inject({ method: 'HEAD', url: '/api/cats/' })).statusCode, 200)
  // Only root routes: other paths keep the app's own trailing-slash handling.
  assert.deepEqual([await status(both, '/api/cats/list'), await status(both, '/api/cats/list/')], [200, 404])
  // A controller's own setting wins over the plugin's.
  assert.deepEqual([await status(both, '/api/dogs'), await status(both, '/api/dogs/')], [200, 404])
  assert.equal(both.hasRoute({ method: 'GET', url: '/api/cats/' }), true)

  const slash = await build(t, AppModule, { prefix: '/api', prefixTrailingSlash: 'slash' })
  assert.deepEqual([await status(slash, '/api/cats'), await status(slash, '/api/cats/'), await status(slash, '/api/cats/', 'POST')], [404, 200, 201])

  // Without any prefix the root of the app is '/' either way.
  @Controller()
  class Home { @Get() home () { return 'home' } }
  @Module({ controllers: [Home] })
  class HomeModule {}
  const home = await build(t, HomeModule, { prefixTrailingSlash: 'both' })
  assert.equal((await home.inject('/')).body, 'home')
})

test('prefixTrailingSlash answers as a prefixed Fastify plugin does, also under the app\'s ignoreTrailingSlash', async (t) => {
  @Controller('example')
  class Example { @Get() get () { return 'decorated' } }
  @Module({ controllers: [Example] })
  class AppModule {}
  for (const routerOptions of [{}, { ignoreTrailingSlash: true }]) {
    for (const prefixTrailingSlash of ['slash', 'no-slash', 'both'] as const) {
      // What the route answered before it was moved: a plain route '/' in a plugin with prefix '/example'.
      const plain = Fastify({ routerOptions })
      t.after(() => plain.close())
      await plain.register(async (child) => { child.get('/', { prefixTrailingSlash }, async () => 'plain') }, { prefix: '/example' })
      const decorated = Fastify({ routerOptions })
      t.after(() => decorated.close())
      await decorated.register(decoratorPlugin, { module: AppModule, prefixTrailingSlash })
      for (const url of ['/example', '/example/']) {
        const [before, after] = [await plain.inject(url), await decorated.inject(url)]
        assert.equal(after.statusCode, before.statusCode, `${prefixTrailingSlash} ${JSON.stringify(routerOptions)} ${url}`)
      }
    }
  }
})

test('prefixTrailingSlash under URI versioning, beside an explicit @Head, and in the duplicate checks', async (t) => {
  @Controller('cats')
  class Cats {
    @Get() @Version('1') v1 () { return 'v1' }
    @Get() @Version('2') v2 () { return 'v2' }
  }
  @Module({ controllers: [Cats] })
  class AppModule {}
  const app = await build(t, AppModule, { prefix: 'api', prefixTrailingSlash: 'both', versioning: { type: 'uri' } })
  for (const url of ['/api/v1/cats', '/api/v1/cats/']) assert.equal((await app.inject(url)).body, 'v1', url)
  assert.equal((await app.inject('/api/v2/cats/')).body, 'v2')

  @Controller('items')
  class Items {
    @Get() get () { return 'get' }
    @Head() head (@Res() res: Response) { res.header('x-head', 'explicit').send() }
  }
  @Module({ controllers: [Items] })
  class ItemsModule {}
  const items = await build(t, ItemsModule, { prefixTrailingSlash: 'both' })
  for (const url of ['/items', '/items/']) {
    assert.equal((await items.inject(url)).body, 'get', url)
    assert.equal((await items.inject({ method: 'HEAD', url })).headers['x-head'], 'explicit', url)
  }

  // The slash URL is claimed like any other: the app's own route there is a clash, named before anything is registered.
  const clash = Fastify()
  clash.get('/items/', async () => 'plain')
  const error = await registrationError({ module: ItemsModule, prefixTrailingSlash: 'both' }, clash)
  assert.equal(error.code, 'FDP_ERR_DUPLICATE_ROUTE')
  assert.equal(error.message, 'Items.get handles GET /items/, which the app already has as a route of its own. Remove one of them, or give the controller another path or prefix.')
})

test('prefixTrailingSlash accepts Fastify\'s values only, on the plugin and on a controller', async () => {
  @Controller('x') class X {}
  @Module({ controllers: [X] }) class XModule {}
  const invalid = await registrationError({ module: XModule, prefixTrailingSlash: 'trailing' } as any)
  assert.equal(invalid.code, 'FDP_ERR_INVALID_OPTIONS')
  assert.equal(invalid.message, 'decoratorPlugin option "prefixTrailingSlash" must be \'slash\', \'no-slash\' or \'both\', as Fastify\'s route option of that name, given string "trailing".')
  assert.throws(() => Controller({ path: 'x', prefixTrailingSlash: true as any }), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@Controller() option "prefixTrailingSlash" must be \'slash\', \'no-slash\' or \'both\', as Fastify\'s route option of that name, given boolean true.'
  })
})

test(':name segments are path parameters', async (t) => {
  @Controller('owners/:owner')
  class Pets {
    @Get('pets/:pet') one (@Param() params: Record<string, string>) { return params }
  }
  @Module({ controllers: [Pets] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/owners/ann/pets/rex%20jr')).json(), { owner: 'ann', pet: 'rex jr' })
})

for (const order of ['GET first', 'HEAD first']) {
  test(`@Head and @Get on one path both work (${order})`, async (t) => {
    class Base {
      get () { return { body: 'get' } }
      head (res: Response) { res.header('x-from', 'head').send() }
    }
    const get = Object.getOwnPropertyDescriptor(Base.prototype, 'get')!
    const head = Object.getOwnPropertyDescriptor(Base.prototype, 'head')!
    // Apply the decorators in the order under test.
    const steps = [
      () => Get('x')(Base.prototype, 'get', get),
      () => { Res()(Base.prototype, 'head', 0); Head('x')(Base.prototype, 'head', head) }
    ]
    if (order === 'HEAD first') steps.reverse()
    for (const step of steps) step()
    Controller('r')(Base)
    @Module({ controllers: [Base] })
    class AppModule {}

    const app = await build(t, AppModule)
    assert.deepEqual((await app.inject('/r/x')).json(), { body: 'get' })
    const res = await app.inject({ method: 'HEAD', url: '/r/x' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-from'], 'head')
    assert.equal(res.body, '')
  })
}

test('@Head in one controller and @Get in another on one path both work', async (t) => {
  @Controller('p')
  class Getter { @Get() get () { return 'get' } }
  @Controller('p')
  class Header { @Head() head (@Res() res: Response) { res.header('x-from', 'head').send() } }
  @Module({ controllers: [Getter, Header] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject('/p')).body, 'get')
  assert.equal((await app.inject({ method: 'HEAD', url: '/p' })).headers['x-from'], 'head')
})

test('an explicit @Head beside @Get under one host takes HEAD there; the same path under another host keeps the automatic HEAD', async (t) => {
  @Controller({ path: 'hh', host: 'a.example.com' })
  class OnA {
    @Get() get () { return 'get a' }
    @Head() head (@Res() res: Response) { res.header('x-from', 'head').send() }
  }
  @Controller({ path: 'hh', host: 'b.example.com' })
  class OnB { @Get() get () { return 'get b' } }
  @Module({ controllers: [OnA, OnB] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ method: 'HEAD', url: '/hh', headers: { host: 'a.example.com' } })).headers['x-from'], 'head')
  const onB = await app.inject({ method: 'HEAD', url: '/hh', headers: { host: 'b.example.com' } })
  assert.equal(onB.statusCode, 200)
  assert.equal(onB.headers['x-from'], undefined)
  assert.equal(onB.headers['content-length'], '5')
})

test('empty @RouteConstraints() claim a path as a route without constraints: a duplicate names both handlers', async () => {
  @Controller('ec')
  class Plain { @Get() one () { return 1 } }
  @Controller('ec')
  class Empty { @Get() @RouteConstraints({}) two () { return 2 } }
  @Module({ controllers: [Plain, Empty] })
  class AppModule {}

  await assert.rejects(registerFails(AppModule), {
    code: 'FDP_ERR_DUPLICATE_ROUTE',
    message: 'Plain.one and Empty.two both handle GET /ec. Give one of them another path, method, host or version.'
  })
})

test('a GET route without an explicit @Head keeps Fastify\'s automatic HEAD route', async (t) => {
  @Controller('auto')
  class Auto { @Get() get () { return 'hello' } }
  @Module({ controllers: [Auto] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject({ method: 'HEAD', url: '/auto' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-length'], '5')
  assert.equal(res.body, '')
})

test('@All answers every method the app supports with 200', async (t) => {
  @Controller('any')
  class Any { @All() any (@Res({ passthrough: true }) res: Response) { return { method: res.request.method } } }
  @Module({ controllers: [Any] })
  class AppModule {}

  // Methods the app adds with addHttpMethod() before registering the plugin are included.
  const app = await build(t, AppModule, {}, (app) => app.addHttpMethod('PROPFIND'))
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY', 'PROPFIND'] as const) {
    const options: InjectOptions = { url: '/any', ...(method === 'QUERY' ? { payload: {} } : {}) }
    // @ts-expect-error light-my-request's types name seven methods; it sends TRACE, QUERY and PROPFIND as well
    options.method = method
    const res = await app.inject(options)
    assert.equal(res.statusCode, 200, method)
    assert.deepEqual(res.json(), { method }, method)
  }
  const head = await app.inject({ method: 'HEAD', url: '/any' })
  assert.equal(head.statusCode, 200)
  // The handler answered HEAD itself: its reply's length is announced, its body never goes out on a socket.
  assert.equal(head.headers['content-length'], String(JSON.stringify({ method: 'HEAD' }).length))
})

test('@All beside an explicit method on the same path fails registration naming both handlers', async () => {
  @Controller('x')
  class Mixed {
    @Post() create () { return 1 }
    @All() any () { return 2 }
  }
  @Module({ controllers: [Mixed] })
  class AppModule {}

  await assert.rejects(registerFails(AppModule), {
    code: 'FDP_ERR_DUPLICATE_ROUTE',
    message: 'Mixed.create and Mixed.any (@All) both handle POST /x. Give one of them another path, method, host or version.'
  })
})

test('two handlers claiming one method and path fail registration naming both, across controllers', async () => {
  @Controller('dup')
  class First { @Get(':id') one () { return 1 } }
  @Controller('/dup/')
  class Second { @Get('/:id') two () { return 2 } }
  @Module({ controllers: [First, Second] })
  class AppModule {}

  await assert.rejects(registerFails(AppModule), {
    code: 'FDP_ERR_DUPLICATE_ROUTE',
    message: 'First.one and Second.two both handle GET /dup/:id. Give one of them another path, method, host or version.'
  })
})

test('routes whose paths differ only by parameter names collide, naming both handlers and both paths', async () => {
  @Controller('cats')
  class Cats {
    @Get(':id') byId (@Param('id') id: string) { return id }
    @Get(':name') byName (@Param('name') name: string) { return name }
  }
  @Module({ controllers: [Cats] })
  class AppModule {}
  await assert.rejects(registerFails(AppModule), {
    code: 'FDP_ERR_DUPLICATE_ROUTE',
    message: 'Cats.byId and Cats.byName both handle GET /cats/:id and /cats/:name (one path to Fastify\'s router: parameter names do not tell routes apart). Give one of them another path, method, host or version.'
  })

  // Across controllers, with the parameter in the controller path.
  @Controller('owners/:ownerId/cats')
  class OwnerCats { @Get() list () { return [] } }
  @Controller('owners/:owner/cats')
  class MoreOwnerCats { @Get() list () { return [] } }
  @Module({ controllers: [OwnerCats, MoreOwnerCats] })
  class OwnersModule {}
  await assert.rejects(registerFails(OwnersModule), { code: 'FDP_ERR_DUPLICATE_ROUTE', message: /^OwnerCats\.list and MoreOwnerCats\.list both handle GET \/owners\/:ownerId\/cats and \/owners\/:owner\/cats/ })
})

test('a parameter with a static suffix is its own route; @Head beside @Get under another parameter name takes HEAD', async (t) => {
  @Controller('items')
  class Items {
    @Get(':id(^\\d+)') byId (@Param('id') id: string) { return { id } }
    @Get(':name.png') png (@Param('name') name: string) { return { png: name } }
    @Get('files/:file') file (@Param('file') file: string) { return { file } }
    @Head('files/:name') fileHead (@Res() res: Response) { res.header('x-head', 'explicit').send() }
  }
  @Module({ controllers: [Items] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/items/42')).json(), { id: '42' })
  assert.deepEqual((await app.inject('/items/tom.png')).json(), { png: 'tom' })
  const head = await app.inject({ method: 'HEAD', url: '/items/files/a.txt' })
  assert.equal(head.headers['x-head'], 'explicit')
  assert.deepEqual((await app.inject('/items/files/a.txt')).json(), { file: 'a.txt' })
})

test('parameters that differ only by their regular expressions collide, as in Fastify\'s router', async () => {
  @Controller('items')
  class Items {
    @Get(':id(^\\d+)') byId () { return 1 }
    @Get(':slug(^[a-z]+)') bySlug () { return 2 }
  }
  @Module({ controllers: [Items] })
  class AppModule {}
  await assert.rejects(registerFails(AppModule), { code: 'FDP_ERR_DUPLICATE_ROUTE', message: /^Items\.byId and Items\.bySlug both handle GET / })
})

test('routeShape calls two paths one route exactly when Fastify refuses to register both', () => {
  const paths = ['/a/:id', '/a/:name', '/a/:id(^\\d+)', '/a/:slug(^[a-z]+)', '/a/:id.png', '/a/:n.png', '/a/:id.jpg', '/a/:x-:y', '/a/:p-:q',
    '/a/:x.:y', '/a/:id-a', '/a/:id-b', '/a/static', '/a/:id/b', '/a/:k/b', '/a/:id(^(?:x|y)$)/b', '/a/::lit', '/a/::lit/:v', '/a/::lit/:w']
  for (const first of paths) {
    for (const second of paths) {
      if (first === second) continue
      const app = Fastify()
      app.get(first, () => 1)
      let refused = false
      try {
        app.get(second, () => 2)
      } catch (error: any) {
        assert.equal(error.code, 'FST_ERR_DUPLICATED_ROUTE')
        refused = true
      }
      assert.equal(routeShape(first) === routeShape(second), refused, `${first} / ${second}`)
    }
  }
})

test('routeShape keeps what find-my-way keeps in a route pattern', () => {
  assert.equal(routeShape('/cats/:id'), '/cats/:')
  assert.equal(routeShape('/cats/:id/toys/:toy'), '/cats/:/toys/:')
  assert.equal(routeShape('/files/:name.:ext'), '/files/:().()')
  assert.equal(routeShape('/range/:from-:to'), routeShape('/range/:a-:b'))
  assert.equal(routeShape('/img/:name.png'), '/img/:().png')
  assert.notEqual(routeShape('/w/:id-a'), routeShape('/w/:id-b'))
  assert.equal(routeShape('/n/:id(^\\d+)/x'), '/n/:()/x')
  assert.equal(routeShape('/n/:id(^\\d+)'), routeShape('/n/:slug(^[a-z]+)'))
  // Parentheses and colons inside a regular expression, and an escaped literal colon, are not parameters.
  assert.equal(routeShape('/g/:id(^(?:a|b)$)/:x'), '/g/:()/:')
  assert.equal(routeShape('/time/12::30/:at'), '/time/12::30/:')
})

test('two handlers with the same host constraint collide; different hosts do not', async (t) => {
  @Controller({ path: 'h', host: 'a.example.com' })
  class A1 { @Get() one () { return 1 } }
  @Controller({ path: 'h', host: 'a.example.com' })
  class A2 { @Get() two () { return 2 } }
  @Module({ controllers: [A1, A2] })
  class Colliding {}

  await assert.rejects(registerFails(Colliding), { code: 'FDP_ERR_DUPLICATE_ROUTE', message: /A1\.one and A2\.two both handle GET \/h with constraints \{host=a\.example\.com\}/ })
})

test('a failed registration registers nothing: the app still serves its plain routes', async () => {
  @Controller('dup')
  class First { @Get() one () { return 1 } }
  @Controller('dup')
  class Second { @Get() two () { return 2 } }
  @Module({ controllers: [First, Second] })
  class AppModule {}

  const app = Fastify()
  app.get('/legacy', async () => 'plain')
  app.register(decoratorPlugin, { module: AppModule })
  await assert.rejects(async () => { await app.ready() }, { code: 'FDP_ERR_DUPLICATE_ROUTE' })
  assert.equal(app.hasRoute({ method: 'GET', url: '/dup' }), false)
})

test('the host option maps to Fastify\'s host constraint (string and RegExp)', async (t) => {
  @Controller({ path: 'site', host: 'admin.example.com' })
  class Admin { @Get() get () { return 'admin' } }
  @Controller({ path: 'site', host: /^(.+)\.tenant\.test$/ })
  class Tenant { @Get() get () { return 'tenant' } }
  @Controller('site')
  class Public { @Get() get () { return 'public' } }
  @Controller({ path: 'only', host: 'admin.example.com' })
  class Only { @Get() get () { return 'only' } }
  @Module({ controllers: [Admin, Tenant, Public, Only] })
  class AppModule {}

  const app = await build(t, AppModule)
  const get = (url: string, host: string) => app.inject({ url, headers: { host } })
  assert.equal((await get('/site', 'admin.example.com')).body, 'admin')
  assert.equal((await get('/site', 'acme.tenant.test')).body, 'tenant')
  assert.equal((await get('/site', 'other.example.com')).body, 'public')
  assert.equal((await get('/only', 'admin.example.com')).body, 'only')
  const missing = await get('/only', 'other.example.com')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().message, 'Route GET:/only not found')
})

test('a host given as a list answers on each host', async (t) => {
  @Controller({ path: 'multi', host: ['a.test', /^b\d\.test$/] })
  class Multi { @Get() get () { return 'multi' } }
  @Module({ controllers: [Multi] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ url: '/multi', headers: { host: 'a.test' } })).body, 'multi')
  assert.equal((await app.inject({ url: '/multi', headers: { host: 'b7.test' } })).body, 'multi')
  assert.equal((await app.inject({ url: '/multi', headers: { host: 'c.test' } })).statusCode, 404)
})

test('the prefix option prefixes every controller of every module', async (t) => {
  @Controller('dogs')
  class Dogs { @Get() all () { return 'dogs' } }
  @Module({ controllers: [Dogs] })
  class DogsModule {}
  @Controller('cats')
  class Cats { @Get() all () { return 'cats' } }
  @Module({ imports: [DogsModule], controllers: [Cats] })
  class AppModule {}

  const app = await build(t, AppModule, { prefix: '/api/v0' })
  assert.equal((await app.inject('/api/v0/cats')).body, 'cats')
  assert.equal((await app.inject('/api/v0/dogs')).body, 'dogs')
  assert.equal((await app.inject('/cats')).statusCode, 404)
})

test('a route decorator with a non-string path fails at declaration, naming the decorator', () => {
  assert.throws(() => Get(42 as any), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@Get() takes a path string, given number 42.' })
  assert.throws(() => Controller(42 as any), { code: 'FDP_ERR_INVALID_DECLARATION' })
})

test('a handler claiming one of the app\'s own routes fails before anything is registered', async () => {
  @Controller('cats')
  class Cats {
    @Get('first') first () { return 1 }
    @Get() all () { return [] }
  }
  @Module({ controllers: [Cats] })
  class ClashModule {}

  const app = Fastify()
  app.get('/api/cats', async () => 'plain')
  let failure: any
  // The error is swallowed on purpose: what matters is what it leaves behind.
  app.register(decoratorPlugin, { module: ClashModule, prefix: '/api' }).after((error) => { failure = error })
  await app.ready()
  assert.equal(failure?.code, 'FDP_ERR_DUPLICATE_ROUTE')
  assert.match(failure.message, /Cats\.all handles GET \/api\/cats, which the app already has/)
  assert.equal(app.hasRoute({ method: 'GET', url: '/api/cats/first' }), false)
  assert.equal(app.hasDecorator('container'), false)
  assert.equal((await app.inject('/api/cats')).body, 'plain')
  await app.close()
})

test('a route hands Fastify only the options it sets, which Fastify copies for every route', async (t) => {
  @Controller({ path: 'set', prefixTrailingSlash: 'slash' })
  class SetController {
    @Get('plain') plain () { return 'plain' }
    @Get() root () { return 'root' }
    @Get('head') getHead () { return 'get' }
    @Head('head') head (@Res() reply: Response) { reply.send() }
  }
  @Module({ controllers: [SetController] })
  class SetModule {}
  const seen = new Map<string, Record<string, unknown>>()
  const app = await build(t, SetModule, {}, (app) => app.addHook('onRoute', (route) => { seen.set(`${String(route.method)} ${route.url}`, route as unknown as Record<string, unknown>) }))
  const optional = ['preHandler', 'errorHandler', 'schema', 'validatorCompiler', 'prefixTrailingSlash', 'constraints', 'exposeHeadRoute']
  assert.deepEqual(optional.filter((key) => key in seen.get('GET /set/plain')!), [])
  assert.deepEqual(seen.get('GET /set/')!.prefixTrailingSlash, 'slash')
  assert.equal(seen.get('GET /set/head')!.exposeHeadRoute, false)
  assert.equal((await app.inject('/set/plain')).body, 'plain')
})

test('each mapped route is logged once at debug level, with its method, URL, version, controller and handler; nothing at info', async (t) => {
  @Controller('cats')
  class CatsController {
    @Get() list () { return [] }
    @Post(':id') @Version('2') update () { return {} }
  }
  @Module({ controllers: [CatsController] })
  class CatsModule {}
  for (const level of ['debug', 'info'] as const) {
    const logs = captureLogs()
    const app = Fastify({ logger: { level, stream: logs.stream } })
    t.after(() => app.close())
    await app.register(async (child) => { await child.register(decoratorPlugin, { module: CatsModule, prefix: 'api', versioning: { type: 'uri' } }) }, { prefix: '/outer' })
    await app.ready()
    const mapped = logs.lines.filter((line) => line.msg?.startsWith('Mapped ')) as unknown as Array<Record<string, unknown>>
    if (level === 'info') {
      assert.deepEqual(mapped, [])
      continue
    }
    assert.deepEqual(mapped.map(({ level, msg, method, url, version, controller, handler }) => ({ level, msg, method, url, version, controller, handler })), [
      { level: 20, msg: 'Mapped {/outer/api/cats, GET} route to CatsController.list', method: 'GET', url: '/outer/api/cats', version: undefined, controller: 'CatsController', handler: 'list' },
      { level: 20, msg: 'Mapped {/outer/api/v2/cats/:id, POST} (version: 2) route to CatsController.update', method: 'POST', url: '/outer/api/v2/cats/:id', version: '2', controller: 'CatsController', handler: 'update' }
    ])
  }
})
