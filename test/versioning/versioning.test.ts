import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import {
  decoratorPlugin, Module, Controller, Get, Post, Version, VERSION_NEUTRAL, UseFilters, Catch,
  BadRequestException, type ArgumentsHost, type Response, type DecoratorPluginOptions, type ExceptionFilter
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

// One path, several handlers: the controller's version, overrides, a list, and a neutral one.
@Controller({ path: 'cats', version: '1' })
class CatsController {
  @Get() v1 () { return 'cats v1' }
  @Version('2') @Get() v2 () { return 'cats v2' }
  @Version(['3', '4']) @Get() v34 () { return 'cats v3/v4' }
  @Version(VERSION_NEUTRAL) @Get() neutral () { return 'cats neutral' }
  @Get('only-one') onlyOne () { return 'only v1' }
  @Version('2') @Post() create () { return 'created v2' }
}

@Controller('dogs')
class DogsController {
  @Get() all () { return 'dogs' }
}

@Module({ controllers: [CatsController, DogsController] })
class AppModule {}

type Headers = Record<string, string>

/** `status body` of a GET, so one assertion shows both. */
async function get (app: FastifyInstance, url: string, headers: Headers = {}): Promise<string> {
  const response = await app.inject({ url, headers })
  return `${response.statusCode} ${response.statusCode === 404 ? 'not found' : response.body}`
}

async function table (app: FastifyInstance, cases: Array<[string, Headers, string]>): Promise<void> {
  for (const [url, headers, expected] of cases) {
    assert.equal(await get(app, url, headers), expected, `GET ${url} ${JSON.stringify(headers)}`)
  }
}

test('header versioning applies without a versioning option, reading Accept-Version', async (t) => {
  const app = await build(t, AppModule)
  await table(app, [
    ['/cats', { 'accept-version': '1' }, '200 cats v1'],
    ['/cats', { 'accept-version': '2' }, '200 cats v2'],
    ['/cats', { 'accept-version': '3' }, '200 cats v3/v4'],
    ['/cats', { 'accept-version': '4' }, '200 cats v3/v4'],
    // no version, an empty one, and one nobody claims: the neutral handler
    ['/cats', {}, '200 cats neutral'],
    ['/cats', { 'accept-version': '' }, '200 cats neutral'],
    ['/cats', { 'accept-version': '9' }, '200 cats neutral'],
    ['/cats/only-one', { 'accept-version': '1' }, '200 only v1'],
    // no neutral handler: unknown, missing and other handlers' versions are 404
    ['/cats/only-one', { 'accept-version': '2' }, '404 not found'],
    ['/cats/only-one', { 'accept-version': '9' }, '404 not found'],
    ['/cats/only-one', {}, '404 not found'],
    // an unversioned controller answers every version
    ['/dogs', {}, '200 dogs'],
    ['/dogs', { 'accept-version': '7' }, '200 dogs']
  ])
  const post = await app.inject({ method: 'POST', url: '/cats', headers: { 'accept-version': '2' } })
  assert.equal(post.statusCode, 201)
  assert.equal(post.body, 'created v2')
  assert.equal((await app.inject({ method: 'POST', url: '/cats', headers: { 'accept-version': '1' } })).statusCode, 404)
})

test('header versioning reads a configured header, case-insensitively, and ignores Accept-Version', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'header', header: 'X-API-Version' } })
  await table(app, [
    ['/cats', { 'x-api-version': '2' }, '200 cats v2'],
    ['/cats', { 'X-Api-Version': '3' }, '200 cats v3/v4'],
    ['/cats', { 'accept-version': '2' }, '200 cats neutral'],
    ['/cats/only-one', { 'accept-version': '1' }, '404 not found']
  ])
})

test('header versioning with defaultVersion: a request naming no version gets it; unversioned handlers only serve it', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'header', defaultVersion: '1' } })
  await table(app, [
    ['/cats', {}, '200 cats v1'],
    ['/cats', { 'accept-version': '' }, '200 cats v1'],
    ['/cats', { 'accept-version': '2' }, '200 cats v2'],
    ['/cats', { 'accept-version': '9' }, '200 cats neutral'],
    ['/cats/only-one', {}, '200 only v1'],
    ['/dogs', {}, '200 dogs'],
    ['/dogs', { 'accept-version': '1' }, '200 dogs'],
    ['/dogs', { 'accept-version': '2' }, '404 not found']
  ])
})

test('defaultVersion may be a list and may include VERSION_NEUTRAL', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'header', defaultVersion: [VERSION_NEUTRAL, '5'] } })
  await table(app, [
    ['/dogs', {}, '200 dogs'],
    ['/dogs', { 'accept-version': '5' }, '200 dogs'],
    ['/dogs', { 'accept-version': '6' }, '200 dogs'],
    ['/cats', {}, '200 cats neutral']
  ])
})

test('uri versioning puts /v<version> before the controller path; neutral and unversioned handlers have no segment', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'uri' }, prefix: '/api' })
  await table(app, [
    ['/api/v1/cats', {}, '200 cats v1'],
    ['/api/v2/cats', {}, '200 cats v2'],
    ['/api/v3/cats', {}, '200 cats v3/v4'],
    ['/api/v4/cats', {}, '200 cats v3/v4'],
    ['/api/cats', {}, '200 cats neutral'],
    ['/api/v1/cats/only-one', {}, '200 only v1'],
    ['/api/v9/cats', {}, '404 not found'],
    ['/api/v2/cats/only-one', {}, '404 not found'],
    ['/api/cats/only-one', {}, '404 not found'],
    ['/api/dogs', {}, '200 dogs'],
    ['/api/v1/dogs', {}, '404 not found'],
    // headers mean nothing to uri versioning
    ['/api/cats', { 'accept-version': '2' }, '200 cats neutral']
  ])
})

test('uri versioning: the prefix is configurable, and false drops it', async (t) => {
  const custom = await build(t, AppModule, { versioning: { type: 'uri', prefix: 'version-' } })
  await table(custom, [
    ['/version-2/cats', {}, '200 cats v2'],
    ['/v2/cats', {}, '404 not found']
  ])
  const bare = await build(t, AppModule, { versioning: { type: 'uri', prefix: false } })
  await table(bare, [
    ['/2/cats', {}, '200 cats v2'],
    ['/1/cats/only-one', {}, '200 only v1'],
    ['/cats', {}, '200 cats neutral']
  ])
})

test('uri versioning with defaultVersion serves unversioned handlers under /v<default>/, neutral ones without a segment', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'uri', defaultVersion: '3' } })
  await table(app, [
    ['/v3/dogs', {}, '200 dogs'],
    ['/dogs', {}, '404 not found'],
    ['/cats', {}, '200 cats neutral'],
    ['/v1/cats', {}, '200 cats v1']
  ])
})

test('media-type versioning reads the v= parameter of Accept; the key is configurable', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'media-type' } })
  await table(app, [
    ['/cats', { accept: 'application/json;v=2' }, '200 cats v2'],
    ['/cats', { accept: 'application/json; v=1' }, '200 cats v1'],
    ['/cats', { accept: 'text/html, application/json;q=0.9;v=3' }, '200 cats v3/v4'],
    ['/cats', { accept: 'application/json' }, '200 cats neutral'],
    ['/cats', {}, '200 cats neutral'],
    ['/cats', { accept: 'application/json;v=9' }, '200 cats neutral'],
    ['/cats/only-one', { accept: 'application/json;v=1' }, '200 only v1'],
    ['/cats/only-one', { accept: 'application/json;v=9' }, '404 not found'],
    ['/cats', { 'accept-version': '2' }, '200 cats neutral']
  ])
  const keyed = await build(t, AppModule, { versioning: { type: 'media-type', key: 'version=', defaultVersion: '1' } })
  await table(keyed, [
    ['/cats', { accept: 'application/json;version=2' }, '200 cats v2'],
    ['/cats', { accept: 'application/json;v=2' }, '200 cats v1'],
    ['/cats', {}, '200 cats v1']
  ])
})

test('custom versioning: the extractor returns a version or a list; the first listed version a handler claims wins', async (t) => {
  const seen: unknown[] = []
  const app = await build(t, AppModule, {
    versioning: {
      type: 'custom',
      extractor: (request) => {
        seen.push(request.url)
        const value = request.headers['x-versions']
        return typeof value === 'string' && value.includes(',') ? value.split(',') : value
      }
    }
  })
  await table(app, [
    ['/cats', { 'x-versions': '2' }, '200 cats v2'],
    ['/cats', { 'x-versions': '9,4,1' }, '200 cats v3/v4'],
    ['/cats', { 'x-versions': '1,2' }, '200 cats v1'],
    ['/cats', { 'x-versions': '8,9' }, '200 cats neutral'],
    ['/cats', {}, '200 cats neutral'],
    ['/cats/only-one', { 'x-versions': '5,1' }, '200 only v1'],
    ['/cats/only-one', { 'x-versions': '5,6' }, '404 not found']
  ])
  assert.ok(seen.includes('/cats/only-one'), 'the extractor sees the request')
  const withDefault = await build(t, AppModule, { versioning: { type: 'custom', extractor: () => undefined, defaultVersion: '2' } })
  await table(withDefault, [['/cats', {}, '200 cats v2'], ['/dogs', {}, '200 dogs'], ['/cats/only-one', {}, '404 not found']])
})

@Catch(BadRequestException)
class VersionFilter implements ExceptionFilter {
  catch (exception: Error, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().code(400).send({ filtered: exception.message })
  }
}

@UseFilters(VersionFilter)
@Controller('filtered')
class FilteredController {
  @Version('1') @Get() one () { return 'one' }
  @Version(VERSION_NEUTRAL) @Get() any () { return 'any' }
}

@Module({ controllers: [CatsController, FilteredController] })
class FilteredModule {}

/** An app with a plain route and a custom extractor that throws when asked by `x-bad`; its log lines, parsed. */
async function throwingExtractorApp (t: TestContext, defaultVersion?: string): Promise<{ app: FastifyInstance, logs: any[] }> {
  const logs: any[] = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  app.get('/plain', async () => 'plain')
  await app.register(decoratorPlugin, {
    module: AppModule,
    versioning: {
      type: 'custom',
      extractor: (request) => {
        if (request.headers['x-bad'] === 'http') throw new BadRequestException('Bad version header')
        if (request.headers['x-bad']) throw new Error('extractor broke')
        return request.headers['x-v'] as string | undefined
      },
      defaultVersion
    }
  })
  return { app, logs }
}

test('a throwing custom extractor answers 500 (logged) on the plugin\'s routes; the server and plain routes keep serving', async (t) => {
  const { app, logs } = await throwingExtractorApp(t)
  const broken = await app.inject({ url: '/cats', headers: { 'x-bad': '1' } })
  assert.equal(broken.statusCode, 500)
  assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
  assert.ok(logs.some((line) => line.err?.message === 'extractor broke'), 'the error is logged')
  const http = await app.inject({ url: '/cats/only-one', headers: { 'x-bad': 'http' } })
  assert.equal(http.statusCode, 400, 'a path with versioned handlers only answers with the error too')
  assert.deepEqual(http.json(), { statusCode: 400, message: 'Bad version header', error: 'Bad Request' })
  const bad = await app.inject({ url: '/cats', headers: { 'x-bad': 'http' } })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, message: 'Bad version header', error: 'Bad Request' })
  assert.equal((await app.inject({ url: '/plain', headers: { 'x-bad': '1' } })).body, 'plain')
  assert.equal(await get(app, '/cats', { 'x-v': '2' }), '200 cats v2')
})

test('a throwing extractor on a path whose handlers are all versioned: the error\'s answer and one log line, not a silent 404', async (t) => {
  const { app, logs } = await throwingExtractorApp(t, '2')
  // /cats/only-one has a v1 handler only; /cats (POST) a v2 one only.
  for (const [method, url] of [['GET', '/cats/only-one'], ['POST', '/cats'], ['GET', '/cats']] as const) {
    logs.length = 0
    const broken = await app.inject({ method, url, headers: { 'x-bad': '1' } })
    assert.equal(broken.statusCode, 500, `${method} ${url}`)
    assert.deepEqual(broken.json(), { statusCode: 500, message: 'Internal server error' })
    const errors = logs.filter((line) => line.level >= 50)
    assert.equal(errors.length, 1, `${method} ${url}: ${JSON.stringify(errors)}`)
    assert.equal(errors[0].err.message, 'extractor broke')
    assert.equal(errors[0].reqId, logs.find((line) => line.msg === 'request completed').reqId)
    const http = await app.inject({ method, url, headers: { 'x-bad': 'http' } })
    assert.deepEqual([http.statusCode, http.json()], [400, { statusCode: 400, message: 'Bad version header', error: 'Bad Request' }], `${method} ${url}`)
  }
  assert.equal(await get(app, '/cats/only-one', { 'x-v': '1' }), '200 only v1')
  assert.equal(await get(app, '/cats/only-one', { 'x-v': '2' }), '404 not found', 'a version nobody claims is still a 404')
  assert.equal(await get(app, '/cats', {}), '200 cats v2')
  assert.equal((await app.inject({ url: '/plain', headers: { 'x-bad': '1' } })).body, 'plain')
})

test('an extractor error reaches the controller\'s exception filters', async (t) => {
  const app = await build(t, FilteredModule, {
    versioning: { type: 'custom', extractor: () => { throw new BadRequestException('no way') } }
  })
  const response = await app.inject('/filtered')
  assert.equal(response.statusCode, 400)
  assert.deepEqual(response.json(), { filtered: 'no way' })
})

test('an unversioned app adds no constraint to its routes', async (t) => {
  const constraints: unknown[] = []
  await build(t, DogsModule(), {}, (app) => {
    app.addHook('onRoute', (route: RouteOptions) => { constraints.push(route.constraints) })
  })
  assert.ok(constraints.length > 0)
  assert.deepEqual(constraints.filter((value) => value !== undefined), [])
})

function DogsModule () {
  @Module({ controllers: [DogsController] })
  class OnlyDogs {}
  return OnlyDogs
}

test('versioned routes carry one constraint of the plugin\'s own; neutral routes carry none', async (t) => {
  const routes: Array<{ url: string, constraints: Record<string, unknown> | undefined }> = []
  await build(t, AppModule, {}, (app) => {
    app.addHook('onRoute', (route: RouteOptions) => { if (route.method !== 'HEAD') routes.push({ url: route.url, constraints: route.constraints }) })
  })
  const names = new Set(routes.flatMap((route) => Object.keys(route.constraints ?? {})))
  assert.equal(names.size, 1)
  const [name] = names
  assert.notEqual(name, 'version', 'Fastify\'s own version strategy is not used')
  const values = routes.filter((route) => route.url === '/cats').map((route) => route.constraints?.[name] ?? 'neutral').sort()
  assert.deepEqual(values, ['1', '2', '2', '3', '4', 'neutral'])
  assert.deepEqual(routes.find((route) => route.url === '/dogs')?.constraints, undefined)
})

@Controller({ path: 'hosted', host: 'admin.test', version: ['1', '2'] })
class HostedAdmin {
  @Get() get () { return 'admin' }
}

@Controller({ path: 'hosted', version: '1' })
class HostedPublic {
  @Get() get () { return 'public' }
}

@Module({ controllers: [HostedAdmin, HostedPublic] })
class HostedModule {}

test('host and version constrain a route together', async (t) => {
  const app = await build(t, HostedModule)
  await table(app, [
    ['/hosted', { host: 'admin.test', 'accept-version': '1' }, '200 admin'],
    ['/hosted', { host: 'admin.test', 'accept-version': '2' }, '200 admin'],
    ['/hosted', { host: 'www.test', 'accept-version': '1' }, '200 public'],
    ['/hosted', { host: 'www.test', 'accept-version': '2' }, '404 not found'],
    ['/hosted', { host: 'admin.test' }, '404 not found']
  ])
})

test('Fastify\'s built-in semver version strategy keeps working for the host app\'s routes', async (t) => {
  const app = await build(t, AppModule, { versioning: { type: 'header', header: 'X-API-Version' } }, (app) => {
    app.get('/semver', { constraints: { version: '1.2.3' } }, async () => 'semver 1.2.3')
  })
  assert.equal(await get(app, '/semver', { 'accept-version': '1.x' }), '200 semver 1.2.3')
  assert.equal(await get(app, '/semver', { 'accept-version': '1.2.3' }), '200 semver 1.2.3')
  assert.equal(await get(app, '/semver', { 'accept-version': '2.x' }), '404 not found')
  assert.equal(await get(app, '/cats', { 'x-api-version': '2' }), '200 cats v2')
  assert.equal(await get(app, '/cats', {}), '200 cats neutral')
})

/** The app's own routes on Fastify's semver `version` constraint, and a plain one. */
function semverRoutes (app: FastifyInstance): void {
  app.get('/semver', { constraints: { version: '1.2.3' } }, async () => 'semver 1.2.3')
  app.get('/semver', { constraints: { version: '1.4.0' } }, async () => 'semver 1.4.0')
  app.get('/semver', { constraints: { version: '2.0.0' } }, async () => 'semver 2.0.0')
  app.get('/open', async () => 'open')
}

test('the app\'s semver `version` routes and the plugin\'s header versioning share Accept-Version in one app', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AppModule })
  // Routes the app adds after the plugin: Fastify's semver matching serves them.
  semverRoutes(app)
  await app.ready()
  const reference = Fastify()
  t.after(() => reference.close())
  semverRoutes(reference)
  for (const version of ['1.2.3', '1.4.0', '1.x', '1.2.x', '1.4.x', '2.x', 'x', '*', '2.0.0', '1.3.0', '3.x', '1', '']) {
    const headers = { 'accept-version': version }
    assert.equal(await get(app, '/semver', headers), await get(reference, '/semver', headers), `Accept-Version: ${version}`)
  }
  assert.equal(await get(app, '/semver', { 'accept-version': '1.x' }), '200 semver 1.4.0')
  assert.equal(await get(app, '/semver'), '404 not found', 'a versioned route still needs a version')
  await table(app, [
    ['/cats', { 'accept-version': '1' }, '200 cats v1'],
    ['/cats', { 'accept-version': '2' }, '200 cats v2'],
    ['/cats', { 'accept-version': '9' }, '200 cats neutral'],
    ['/cats', { 'accept-version': '1.x' }, '200 cats neutral'],
    ['/cats', {}, '200 cats neutral'],
    ['/cats/only-one', { 'accept-version': '1' }, '200 only v1'],
    ['/dogs', { 'accept-version': '2' }, '200 dogs'],
    // Fastify alone would answer 404 here, once any route uses the built-in constraint.
    ['/open', { 'accept-version': '1' }, '200 open'],
    ['/open', {}, '200 open']
  ])
  assert.equal((await app.inject({ method: 'POST', url: '/cats', headers: { 'accept-version': '2' } })).body, 'created v2')
  assert.equal(await get(reference, '/open', { 'accept-version': '1' }), '404 not found')
})

test('an app whose own routes already use Fastify\'s `version` constraint fails register with FDP_ERR_VERSION_CONFLICT naming the fix', async () => {
  for (const versioning of [undefined, { type: 'header' as const }, { type: 'header' as const, header: 'Accept-Version' }]) {
    const app = Fastify()
    semverRoutes(app)
    const error = await registrationError({ module: AppModule, versioning }, app)
    assert.equal(error.code, 'FDP_ERR_VERSION_CONFLICT')
    assert.match(error.message, /Fastify's built-in `version` constraint/)
    assert.match(error.message, /Register decoratorPlugin before those routes/)
    assert.match(error.message, /header: 'X-API-Version'/)
    assert.equal((app as FastifyInstance & { container?: unknown }).container, undefined, 'nothing is left behind')
  }
  // No versioned handler, or another header: nothing clashes.
  for (const [module, versioning] of [[DogsModule(), undefined], [AppModule, { type: 'header' as const, header: 'X-API-Version' }], [AppModule, { type: 'uri' as const }]] as const) {
    const app = Fastify()
    semverRoutes(app)
    await app.register(decoratorPlugin, { module, versioning })
    await app.ready()
    assert.equal(await get(app, '/semver', { 'accept-version': '2.x' }), '200 semver 2.0.0')
    await app.close()
  }
})

test('the strategy is added once per Fastify instance: two registrations in one app share it', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  for (const prefix of ['/a', '/b']) {
    await app.register(async (child) => { await child.register(decoratorPlugin, { module: AppModule, prefix }) })
  }
  await app.register(async (child) => {
    await child.register(decoratorPlugin, { module: AppModule, prefix: '/c', versioning: { type: 'header', defaultVersion: '2' } })
  })
  await app.ready()
  await table(app, [
    ['/a/cats', { 'accept-version': '2' }, '200 cats v2'],
    ['/b/cats', { 'accept-version': '3' }, '200 cats v3/v4'],
    ['/b/cats', {}, '200 cats neutral'],
    // a registration with another defaultVersion keeps its own meaning
    ['/c/cats', {}, '200 cats v2'],
    ['/a/cats', {}, '200 cats neutral']
  ])
})

test('@Version and @Controller({ version }) reject empty or non-string versions', () => {
  for (const bad of ['', [], [''], 1, null, ['1', 2]]) {
    assert.throws(() => Version(bad as any), (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
      assert.match(error.message, /@Version\(\) takes a non-empty string, an array of them, or VERSION_NEUTRAL/)
      return true
    })
    assert.throws(() => Controller({ path: 'x', version: bad as any }), (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
      assert.match(error.message, /@Controller\(\) option "version"/)
      return true
    })
  }
})

test('the versioning option is validated with FDP_ERR_INVALID_OPTIONS', async () => {
  const cases: Array<[unknown, RegExp]> = [
    ['header', /"versioning" must be an object like \{ type: 'header' \}, given string "header"/],
    [{}, /versioning.type must be one of header, uri, media-type, custom, given undefined/],
    [{ type: 'query' }, /versioning.type must be one of .*given string "query"/],
    [{ type: 'header', header: '' }, /versioning.header must be a non-empty header name/],
    [{ type: 'header', header: 'bad header' }, /versioning.header must be a non-empty header name/],
    [{ type: 'uri', prefix: 1 }, /versioning.prefix must be a string or false/],
    [{ type: 'uri', prefix: 'v/' }, /versioning.prefix must be a string or false/],
    [{ type: 'media-type', key: '' }, /versioning.key must be a non-empty string/],
    [{ type: 'custom' }, /needs an extractor\(request\) function, given undefined/],
    [{ type: 'header', defaultVersion: 2 }, /versioning.defaultVersion must be a version string.*given number 2/],
    [{ type: 'header', defaultVersion: '' }, /versioning.defaultVersion/]
  ]
  for (const [versioning, message] of cases) {
    const app = Fastify()
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: AppModule, versioning } as unknown as DecoratorPluginOptions).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
      assert.match(error.message, message)
      return true
    }, JSON.stringify(versioning))
    await app.close()
  }
})

test('printRoutes() names a version constraint after what it reads', async (t) => {
  @Controller('cats')
  class CatsController { @Get() @Version('1') list () { return [] } }
  @Module({ controllers: [CatsController] })
  class CatsModule {}
  const names: string[] = []
  for (const versioning of [{ type: 'header', header: 'X-API-Version' }, { type: 'media-type', key: 'v=' }, { type: 'custom', extractor: () => '1' }] as const) {
    const app = await build(t, CatsModule, { versioning })
    names.push(app.printRoutes({ commonPrefix: false }).trim())
  }
  // One strategy per configuration in the process: another custom extractor's takes a number.
  assert.match(names[0], /^└── \/cats \(GET, HEAD\) \{"apiVersionHeaderXApiVersion\d*":"1"\}$/)
  assert.match(names[1], /^└── \/cats \(GET, HEAD\) \{"apiVersionMediaType\d*":"1"\}$/)
  assert.match(names[2], /^└── \/cats \(GET, HEAD\) \{"apiVersionCustom\d*":"1"\}$/)
})
