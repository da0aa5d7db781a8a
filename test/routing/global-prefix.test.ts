import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  Module, Controller, Get, Post, All, Param, RequestMethod, ApplicationConfig,
  type MiddlewareConsumer, type NestModule
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

@Controller('health')
class HealthController {
  @Get() check () { return 'health' }
  @Post() report () { return 'report' }
}

@Controller('cats')
class CatsController {
  @Get() list () { return 'list' }
  @Get(':id') one (@Param('id') id: string) { return `cat ${id}` }
  @Post(':id') update (@Param('id') id: string) { return `updated ${id}` }
  @All('any') any () { return 'any' }
  @All('every') every () { return 'every' }
}

@Controller('files')
class FilesController {
  @Get() root () { return 'files' }
  @Get('a/b') nested () { return 'nested' }
}

@Controller('status')
class StatusController {
  @Get() status () { return 'status' }
}

@Module({ controllers: [HealthController, CatsController, FilesController, StatusController] })
class AppModule {}

const exclusions = [
  'health',
  { path: 'cats/:id', method: RequestMethod.GET },
  { path: 'cats/any', method: RequestMethod.GET },
  { path: 'cats/every', method: RequestMethod.ALL },
  'files/{*rest}',
  '/STATUS/'
]

test('prefixExclude serves the routes it matches without the prefix, by path pattern and method, as NestJS does', async (t) => {
  const app = await build(t, AppModule, { prefix: 'api', prefixExclude: exclusions })
  const table: Array<[string, string, number, string?]> = [
    // A plain path: every method of the routes it names.
    ['GET', '/health', 200, 'health'],
    ['POST', '/health', 201, 'report'],
    ['GET', '/api/health', 404],
    // { path, method }: only the routes of that method; a parameter takes the route's own `:id`.
    ['GET', '/cats/7', 200, 'cat 7'],
    ['GET', '/api/cats/7', 404],
    ['POST', '/api/cats/7', 201, 'updated 7'],
    ['POST', '/cats/7', 404],
    ['GET', '/api/cats', 200, 'list'],
    ['GET', '/cats', 404],
    // An @All route is taken out by RequestMethod.ALL (or a plain path) only.
    ['GET', '/api/cats/any', 200, 'any'],
    // (GET /cats/any is the excluded GET cats/:id route's.)
    ['GET', '/cats/any', 200, 'cat any'],
    ['POST', '/cats/any', 404],
    ['PUT', '/cats/every', 200, 'every'],
    // A wildcard takes the path it follows and everything below it.
    ['GET', '/files', 200, 'files'],
    ['GET', '/files/a/b', 200, 'nested'],
    ['GET', '/api/files', 404],
    // Leading and trailing slashes and case do not matter.
    ['GET', '/status', 200, 'status'],
    ['GET', '/api/status', 404]
  ]
  for (const [method, url, status, body] of table) {
    const response = await app.inject({ method: method as 'GET', url })
    assert.equal(response.statusCode, status, `${method} ${url}`)
    if (body !== undefined) assert.equal(response.body, body, `${method} ${url}`)
  }
  assert.deepEqual(app.container.get(ApplicationConfig).getGlobalPrefixOptions().exclude?.map(({ path, requestMethod }) => [path, requestMethod]), [
    ['health', RequestMethod.ALL], ['cats/:id', RequestMethod.GET], ['cats/any', RequestMethod.GET], ['cats/every', RequestMethod.ALL], ['files/{*rest}', RequestMethod.ALL], ['/STATUS/', RequestMethod.ALL]
  ])
})

test('without a prefix, or with an empty list, nothing changes', async (t) => {
  const plain = await build(t, AppModule, { prefixExclude: ['health'] })
  assert.equal((await plain.inject('/health')).body, 'health')
  assert.equal((await plain.inject('/cats/1')).body, 'cat 1')
  const none = await build(t, AppModule, { prefix: 'api', prefixExclude: [] })
  assert.equal((await none.inject('/api/health')).body, 'health')
  assert.deepEqual(none.container.get(ApplicationConfig).getGlobalPrefixOptions(), { exclude: [] })
})

@Controller({ path: 'hello', version: '1' })
class HelloV1 {
  @Get() hello () { return 'hello v1' }
  @Get('world') world () { return 'world v1' }
}

@Controller({ path: 'hello', version: '2' })
class HelloV2 {
  @Get() hello () { return 'hello v2' }
}

@Module({ controllers: [HelloV1, HelloV2] })
class VersionedModule {}

test('under URI versioning an exclusion is matched without the version, and the route keeps its version segment', async (t) => {
  const app = await build(t, VersionedModule, { prefix: 'api', prefixExclude: [{ path: 'hello', method: RequestMethod.GET }], versioning: { type: 'uri' } })
  assert.equal((await app.inject('/v1/hello')).body, 'hello v1')
  assert.equal((await app.inject('/v2/hello')).body, 'hello v2')
  assert.equal((await app.inject('/api/v1/hello')).statusCode, 404)
  assert.equal((await app.inject('/api/v1/hello/world')).body, 'world v1')
  assert.equal((await app.inject('/v1/hello/world')).statusCode, 404)
})

function tag (name: string) {
  return (req: IncomingMessage & { tags?: string[] }, res: ServerResponse, next: () => void) => {
    res.setHeader('x-tags', [...(res.getHeader('x-tags') as string[] ?? []), name])
    next()
  }
}

@Module({ controllers: [HealthController, CatsController] })
class MiddlewareModule implements NestModule {
  configure (consumer: MiddlewareConsumer) {
    consumer.apply(tag('health')).forRoutes('health')
    consumer.apply(tag('all')).forRoutes('*')
    consumer.apply(tag('cat')).exclude({ path: 'cats/:id', method: RequestMethod.POST }).forRoutes('cats/:id')
  }
}

test('middleware paths stay relative to the prefix: a route served without it is matched as if below it', async (t) => {
  const app = await build(t, MiddlewareModule, { prefix: 'api', prefixExclude: ['health', { path: 'cats/:id', method: RequestMethod.GET }] })
  const tags = async (method: string, url: string) => (await app.inject({ method: method as 'GET', url })).headers['x-tags']
  assert.deepEqual(await tags('GET', '/health'), ['health', 'all'])
  assert.deepEqual(await tags('GET', '/cats/1'), ['all', 'cat'])
  assert.deepEqual(await tags('POST', '/api/cats/1'), ['all'])
  assert.deepEqual(await tags('GET', '/api/cats'), ['all'])
})

@Module({ controllers: [HealthController] })
class HealthModule {}

test('bad prefix options fail registration with a message that says what to give', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ prefix: 1 }, /decoratorPlugin option "prefix" must be a string, given number 1\./],
    [{ prefix: 'api', prefixExclude: 'health' }, /"prefixExclude" must be an array of paths or \{ path, method \}, given string "health"\./],
    [{ prefix: 'api', prefixExclude: [{ path: 'health' }] }, /"prefixExclude"\[0\] is an object .*; give a path such as 'health' or \{ path: 'health', method: RequestMethod\.GET \}\./],
    [{ prefix: 'api', prefixExclude: [{ path: 'health', method: 'GET' }] }, /"prefixExclude"\[0\] is/],
    [{ prefix: 'api', prefixExclude: [null] }, /"prefixExclude"\[0\] is null/],
    [{ prefix: 'api', prefixExclude: ['health/*/x'] }, /the wildcard in "health\/\*\/x" must be its last segment/]
  ]
  for (const [options, message] of cases) {
    const error = await registrationError({ module: HealthModule, ...options as object })
    assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS', String(message))
    assert.match(error.message, message)
  }
})

test('an exclusion of the root path takes out the root route only; -1 stands for RequestMethod.ALL', async (t) => {
  @Controller()
  class RootController {
    @Get() root () { return 'root' }
    @Get('x') x () { return 'x' }
  }
  @Module({ controllers: [RootController, HealthController] })
  class RootModule {}
  const app = await build(t, RootModule, { prefix: 'api', prefixExclude: ['/', { path: 'health', method: -1 as RequestMethod }] })
  assert.equal((await app.inject('/')).body, 'root')
  assert.equal((await app.inject('/api/x')).body, 'x')
  assert.equal((await app.inject('/health')).body, 'health')
  assert.equal(app.container.get(ApplicationConfig).getGlobalPrefixOptions().exclude?.[1].requestMethod, RequestMethod.ALL)
})
