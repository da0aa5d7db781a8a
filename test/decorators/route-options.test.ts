import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { Type } from '@sinclair/typebox'
import {
  decoratorPlugin, Module, Controller, Get, Post, Param, Query, Body, Headers, Req, UseGuards, UseFilters, Catch,
  RouteSchema, RouteConfig, RouteConstraints, type Request, type ArgumentsHost
} from '../../plugin/index.js'
import { sameShape } from '../helpers/shape.js'
import { build } from '../helpers/app.js'

const Cat = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
  additionalProperties: false
}

@Controller('cats')
class CatsController {
  @Post()
  @RouteSchema({ body: Cat })
  create (@Body() cat: unknown) { return { created: cat } }

  @Get('search')
  @RouteSchema({ querystring: { type: 'object', required: ['limit'], properties: { limit: { type: 'integer', maximum: 50 } } } })
  search (@Query('limit') limit: unknown) { return { limit, type: typeof limit } }

  @Get(':id')
  @RouteSchema({ params: { type: 'object', properties: { id: { type: 'integer' } } } })
  findOne (@Param('id') id: unknown) { return { id, type: typeof id } }

  @Get('tenant/info')
  @RouteSchema({ headers: { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string', pattern: '^[a-z]+$' } } } })
  tenant (@Headers('x-tenant') tenant: string) { return { tenant } }

  @Get('me/profile')
  @RouteSchema({
    response: {
      200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
    }
  })
  profile () { return { id: 1, name: 'Tom', password: 'secret', token: 'abc' } }

  @Post('adopt')
  @RouteSchema({ body: Cat })
  @RouteSchema({ response: { 201: { type: 'object', properties: { name: { type: 'string' } } } } })
  adopt (@Body() cat: { name: string }) { return { name: cat.name, internal: true } }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

const validationError = (message: string) => ({ statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message })

test('@RouteSchema body: valid input reaches the handler, invalid input gets 400 in Fastify\'s format', async (t) => {
  const app = await build(t, CatsModule)
  const ok = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 3 } })
  assert.equal(ok.statusCode, 201)
  assert.deepEqual(ok.json(), { created: { name: 'Tom', age: 3 } })

  const missing = await app.inject({ method: 'POST', url: '/cats', payload: { age: 3 } })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), validationError('body must have required property \'name\''))

  const wrongType = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: -1 } })
  assert.equal(wrongType.statusCode, 400)
  assert.deepEqual(wrongType.json(), validationError('body/age must be >= 0'))
  // The server keeps serving after rejected input.
  assert.equal((await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Felix' } })).statusCode, 201)
})

test('@RouteSchema querystring and params: ajv coerces types before the handler, rejects what does not fit', async (t) => {
  const app = await build(t, CatsModule)
  assert.deepEqual((await app.inject('/cats/search?limit=10')).json(), { limit: 10, type: 'number' })
  assert.deepEqual((await app.inject('/cats/search')).json(), validationError('querystring must have required property \'limit\''))
  assert.deepEqual((await app.inject('/cats/search?limit=99')).json(), validationError('querystring/limit must be <= 50'))
  assert.deepEqual((await app.inject('/cats/42')).json(), { id: 42, type: 'number' })
  const bad = await app.inject('/cats/abc')
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), validationError('params/id must be integer'))
})

test('@RouteSchema headers: validated case-insensitively', async (t) => {
  const app = await build(t, CatsModule)
  assert.deepEqual((await app.inject({ url: '/cats/tenant/info', headers: { 'X-Tenant': 'acme' } })).json(), { tenant: 'acme' })
  const missing = await app.inject('/cats/tenant/info')
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), validationError('headers must have required property \'x-tenant\''))
  const bad = await app.inject({ url: '/cats/tenant/info', headers: { 'x-tenant': 'ACME!' } })
  assert.deepEqual(bad.json(), validationError('headers/x-tenant must match pattern "^[a-z]+$"'))
})

test('@RouteSchema response: fields outside the schema never leave the server', async (t) => {
  const app = await build(t, CatsModule)
  const res = await app.inject('/cats/me/profile')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"id":1,"name":"Tom"}')
})

test('several @RouteSchema decorators on one handler merge; a 201 response schema applies to @Post', async (t) => {
  const app = await build(t, CatsModule)
  const res = await app.inject({ method: 'POST', url: '/cats/adopt', payload: { name: 'Tom' } })
  assert.equal(res.statusCode, 201)
  assert.equal(res.body, '{"name":"Tom"}')
  assert.equal((await app.inject({ method: 'POST', url: '/cats/adopt', payload: {} })).statusCode, 400)
})

test('a TypeBox schema works as it is: validation, coercion and serialization', async (t) => {
  const NewDog = Type.Object({ name: Type.String({ minLength: 2 }), good: Type.Boolean() }, { additionalProperties: false })
  const DogOut = Type.Object({ name: Type.String(), good: Type.Boolean() })
  @Controller('dogs')
  class DogsController {
    @Post()
    @RouteSchema({ body: NewDog, response: { 201: DogOut } })
    create (@Body() dog: { name: string, good: boolean }) { return { ...dog, owner: 'hidden' } }

    @Get()
    @RouteSchema({ querystring: Type.Object({ page: Type.Integer({ minimum: 1, default: 1 }) }) })
    list (@Query('page') page: number) { return { page } }
  }
  @Module({ controllers: [DogsController] })
  class DogsModule {}
  const app = await build(t, DogsModule)
  const ok = await app.inject({ method: 'POST', url: '/dogs', payload: { name: 'Rex', good: true } })
  assert.equal(ok.statusCode, 201)
  assert.equal(ok.body, '{"name":"Rex","good":true}')
  const bad = await app.inject({ method: 'POST', url: '/dogs', payload: { name: 'R', good: true } })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), validationError('body/name must NOT have fewer than 2 characters'))
  assert.deepEqual((await app.inject('/dogs')).json(), { page: 1 })
  assert.deepEqual((await app.inject('/dogs?page=3')).json(), { page: 3 })
  assert.deepEqual((await app.inject('/dogs?page=0')).json(), validationError('querystring/page must be >= 1'))
})

test('guards run before schema validation (403 before 400), and filters see validation errors', async (t) => {
  @Catch()
  class ReportFilter {
    catch (error: any, host: ArgumentsHost) { host.switchToHttp().getResponse().code(422).send({ filtered: error.code }) }
  }
  @Controller('guarded')
  class GuardedController {
    @Post('deny')
    @UseGuards({ canActivate: () => false })
    @RouteSchema({ body: Cat })
    deny () { return 'never' }

    @Post('filtered')
    @UseFilters(ReportFilter)
    @RouteSchema({ body: Cat })
    filtered () { return 'never' }
  }
  @Module({ controllers: [GuardedController] })
  class GuardedModule {}
  const app = await build(t, GuardedModule)
  const denied = await app.inject({ method: 'POST', url: '/guarded/deny', payload: {} })
  assert.equal(denied.statusCode, 403)
  const filtered = await app.inject({ method: 'POST', url: '/guarded/filtered', payload: {} })
  assert.equal(filtered.statusCode, 422)
  assert.deepEqual(filtered.json(), { filtered: 'FST_ERR_VALIDATION' })
})

@Controller('limited')
class LimitedController {
  @Get('strict')
  @RouteConfig({ rateLimit: { max: 2, timeWindow: '1 minute' }, label: 'strict' })
  strict (@Req() request: Request) { return request.routeOptions.config }

  @Get('free')
  free () { return 'free' }
}

@Module({ controllers: [LimitedController] })
class LimitedModule {}

const withRateLimit = (app: FastifyInstance) => app.register(rateLimit, { global: false })

test('@RouteConfig is the route\'s config, visible in request.routeOptions.config', async (t) => {
  const app = await build(t, LimitedModule, {}, withRateLimit)
  const res = await app.inject('/limited/strict')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { rateLimit: { max: 2, timeWindow: '1 minute' }, label: 'strict', url: '/limited/strict', method: 'GET' })
})

test('@RouteConfig is read by @fastify/rate-limit: only the configured route is limited, with its own max', async (t) => {
  const app = await build(t, LimitedModule, {}, withRateLimit)
  const first = await app.inject('/limited/strict')
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers['x-ratelimit-limit'], '2')
  assert.equal(first.headers['x-ratelimit-remaining'], '1')
  assert.equal((await app.inject('/limited/strict')).statusCode, 200)
  const limited = await app.inject('/limited/strict')
  assert.equal(limited.statusCode, 429)
  assert.deepEqual(limited.json(), { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' })
  for (let i = 0; i < 5; i++) {
    const free = await app.inject('/limited/free')
    assert.equal(free.statusCode, 200)
    assert.equal(free.headers['x-ratelimit-limit'], undefined)
  }
})

test('@RouteConstraints adds a host constraint', async (t) => {
  @Controller('site')
  class SiteController {
    @Get()
    @RouteConstraints({ host: 'admin.example.com' })
    admin () { return 'admin' }

    @Get()
    everyone () { return 'everyone' }
  }
  @Module({ controllers: [SiteController] })
  class SiteModule {}
  const app = await build(t, SiteModule)
  assert.equal((await app.inject({ url: '/site', headers: { host: 'admin.example.com' } })).body, 'admin')
  assert.equal((await app.inject({ url: '/site', headers: { host: 'www.example.com' } })).body, 'everyone')
})

test('@RouteConstraints with a custom strategy the app registered', async (t) => {
  type TenantStorage = ReturnType<Parameters<FastifyInstance['addConstraintStrategy']>[0]['storage']>
  @Controller('reports')
  class ReportsController {
    @Get()
    @RouteConstraints({ tenant: 'acme' })
    acme () { return 'acme reports' }
  }
  @Module({ controllers: [ReportsController] })
  class ReportsModule {}
  const app = await build(t, ReportsModule, {}, (app) => {
    app.addConstraintStrategy({
      name: 'tenant',
      storage (): TenantStorage {
        const store = new Map<unknown, Parameters<TenantStorage['set']>[1]>()
        return { get: (key) => store.get(key) ?? null, set: (key, value) => { store.set(key, value) } }
      },
      deriveConstraint: (req) => req.headers['x-tenant'] as string,
      mustMatchWhenDerived: true
    })
  })
  assert.equal((await app.inject({ url: '/reports', headers: { 'x-tenant': 'acme' } })).body, 'acme reports')
  assert.equal((await app.inject({ url: '/reports', headers: { 'x-tenant': 'other' } })).statusCode, 404)
})

test('route option decorators reject bad arguments when applied', () => {
  for (const [decorator, name] of [[RouteSchema, 'RouteSchema'], [RouteConfig, 'RouteConfig'], [RouteConstraints, 'RouteConstraints']] as const) {
    for (const [value, given] of [[null, 'null'], ['x', 'string "x"'], [[], 'an array'], [undefined, 'undefined']] as const) {
      assert.throws(() => (decorator as any)(value), (error: any) => {
        assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
        assert.equal(error.message, `@${name}() takes an object, given ${given}.`)
        return true
      })
    }
  }
})

test('@RouteSchema rejects a part that is not a schema object (or a DTO class, for request parts), naming the part', () => {
  assert.throws(() => RouteSchema({ body: 'Cat' } as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@RouteSchema(): "body" must be a JSON schema object or a DTO class, given string "Cat".'
  })
  assert.throws(() => RouteSchema({ headers: class AuthHeaders {} } as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@RouteSchema(): "headers" must be a JSON schema object, given class AuthHeaders.'
  })
  assert.throws(() => RouteSchema({ response: [Cat] } as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@RouteSchema(): "response" must be a JSON schema object, given an array.'
  })
})

test('route option decorators only decorate methods', () => {
  assert.throws(() => {
    @(RouteConfig({ a: 1 }) as any)
    class Wrong {}
    void Wrong
  }, {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@RouteConfig() decorates a route handler method; Wrong is not one.'
  })
  assert.throws(() => {
    class Wrong { @(RouteSchema({}) as any) field = 1 }
    void Wrong
  }, {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@RouteSchema() decorates a route handler method; Wrong.field is not one.'
  })
})

test('a constraint no strategy handles fails registration naming the handler', async () => {
  @Controller('x')
  class XController {
    @Get()
    @RouteConstraints({ planet: 'mars' })
    get () { return 'x' }
  }
  @Module({ controllers: [XController] })
  class XModule {}
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: XModule }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, /XController\.get: @RouteConstraints\(\) uses the constraint "planet", which no strategy handles/)
    return true
  })
  assert.equal(app.hasDecorator('container'), false)
})

test('a handler\'s @RouteConstraints host wins over its controller\'s host', async (t) => {
  @Controller({ path: 'panel', host: ['a.example.com', 'b.example.com'] })
  class PanelController {
    @Get()
    @RouteConstraints({ host: 'admin.example.com' })
    admin () { return 'admin' }

    @Get('public')
    open () { return 'public' }
  }
  @Module({ controllers: [PanelController] })
  class PanelModule {}
  const app = await build(t, PanelModule)
  assert.equal((await app.inject({ url: '/panel', headers: { host: 'admin.example.com' } })).body, 'admin')
  assert.equal((await app.inject({ url: '/panel', headers: { host: 'a.example.com' } })).statusCode, 404)
  assert.equal((await app.inject({ url: '/panel/public', headers: { host: 'b.example.com' } })).body, 'public')
  assert.equal((await app.inject({ url: '/panel/public', headers: { host: 'admin.example.com' } })).statusCode, 404)
})

test('@RouteSchema can $ref a schema the app added with addSchema', async (t) => {
  @Controller('refs')
  class RefsController {
    @Post()
    @RouteSchema({ body: { $ref: 'Pet#' }, response: { 201: { $ref: 'Pet#' } } })
    create (@Body() pet: unknown) { return { ...(pet as object), extra: 'dropped' } }
  }
  @Module({ controllers: [RefsController] })
  class RefsModule {}
  const app = await build(t, RefsModule, {}, (app) => {
    app.addSchema({ $id: 'Pet', type: 'object', required: ['name'], properties: { name: { type: 'string' } } })
  })
  const ok = await app.inject({ method: 'POST', url: '/refs', payload: { name: 'Tom' } })
  assert.equal(ok.statusCode, 201)
  assert.equal(ok.body, '{"name":"Tom"}')
  assert.deepEqual((await app.inject({ method: 'POST', url: '/refs', payload: {} })).json(), validationError('body must have required property \'name\''))
})

test('global exception filters see schema validation errors of routes without filters of their own', async (t) => {
  @Catch()
  class GlobalFilter {
    catch (error: any, host: ArgumentsHost) { host.switchToHttp().getResponse().code(400).send({ invalid: error.validationContext }) }
  }
  const app = await build(t, CatsModule, { globalFilters: [GlobalFilter] })
  const res = await app.inject({ method: 'POST', url: '/cats', payload: {} })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { invalid: 'body' })
})

test('the configs Fastify copies from the plugin\'s routes share one hidden class, as plain routes\' do', async (t) => {
  const controllers = Array.from({ length: 12 }, (_, c) => {
    @Controller(`shape${c}`)
    class ShapeController {
      @Get() list () { return [] }
      @Get(':id') get (@Param('id') id: string) { return { id } }
      @Get('configured') @RouteConfig({ label: c }) configured () { return 'configured' }
    }
    return ShapeController
  })
  @Module({ controllers })
  class ShapesModule {}
  const configs: object[] = []
  const app = await build(t, ShapesModule, {}, (app) => app.addHook('onRequest', async (request) => { configs.push(request.routeOptions.config) }))
  for (const url of ['/shape0', '/shape11', '/shape5/7', '/shape0/configured', '/shape11/configured']) assert.equal((await app.inject(url)).statusCode, 200)
  const [first, last, param, configured, otherConfigured] = configs
  assert.equal(sameShape(first, last), true)
  assert.equal(sameShape(first, param), true)
  assert.equal(sameShape(configured, otherConfigured), true)
})
