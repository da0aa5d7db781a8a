import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Controller, Get, HostParam, Module, ParseIntPipe, Param, RouteConstraints, UseGuards,
  type ExecutionContext
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

const get = (app: Awaited<ReturnType<typeof build>>, url: string, host: string) => app.inject({ url, headers: { host } })

test('a NestJS host pattern binds the controller to matching hosts; @HostParam reads the parameters', async (t) => {
  @Controller({ path: 'account', host: ':tenant.example.com' })
  class AccountController {
    @Get() whoami (@HostParam('tenant') tenant: string, @HostParam() all: Record<string, string>) { return { tenant, all } }
  }
  @Module({ controllers: [AccountController] })
  class AppModule {}
  // As in NestJS, host parameters are not piped.
  const app = await build(t, AppModule, { globalPipes: [{ transform: (value: unknown) => typeof value === 'string' ? value.toUpperCase() : value }] })

  const acme = await get(app, '/account', 'acme.example.com')
  assert.equal(acme.statusCode, 200)
  assert.deepEqual(acme.json(), { tenant: 'acme', all: { tenant: 'acme' } })
  // Hosts are case-insensitive, and the Host header may carry a port.
  assert.deepEqual((await get(app, '/account', 'Acme.EXAMPLE.com:8080')).json(), { tenant: 'Acme', all: { tenant: 'Acme' } })
  // As in NestJS (path-to-regexp), the first parameter may span labels.
  assert.deepEqual((await get(app, '/account', 'eu.acme.example.com')).json().tenant, 'eu.acme')
  // Fastify's host constraint: other hosts do not reach the route.
  assert.equal((await get(app, '/account', 'example.com')).statusCode, 404)
  assert.equal((await get(app, '/account', 'acme.example.org')).statusCode, 404)
  assert.equal((await get(app, '/account', 'acme.example.com.evil.test')).statusCode, 404)
})

test('several parameters: each after the first stops at the text before it', async (t) => {
  @Controller({ host: ':service.:region.cloud.test' })
  class ServiceController {
    @Get('where') where (@HostParam('service') service: string, @HostParam('region') region: string) { return { service, region } }
  }
  @Module({ controllers: [ServiceController] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual((await get(app, '/where', 'api.eu-west.cloud.test')).json(), { service: 'api', region: 'eu-west' })
  assert.deepEqual((await get(app, '/where', 'v2.api.eu.cloud.test')).json(), { service: 'v2.api', region: 'eu' })
  assert.equal((await get(app, '/where', 'api.cloud.test')).statusCode, 404)
})

test('literal hosts and RegExps still work beside patterns; a host-bound and a plain controller share a path', async (t) => {
  @Controller({ path: 'site', host: ['admin.example.com', /^(?<shop>[a-z]+)\.shop\.test$/, ':tenant.example.com'] })
  class SiteController {
    @Get() site (@HostParam() params: Record<string, string>) { return { bound: params } }
  }
  @Controller('site')
  class PlainSiteController {
    @Get() site () { return { plain: true } }
  }
  @Module({ controllers: [SiteController, PlainSiteController] })
  class AppModule {}
  const app = await build(t, AppModule)

  // The literal host wins over a pattern that also matches it, as in Fastify's routing.
  assert.deepEqual((await get(app, '/site', 'admin.example.com')).json(), { bound: {} })
  assert.deepEqual((await get(app, '/site', 'boots.shop.test')).json(), { bound: { shop: 'boots' } })
  assert.deepEqual((await get(app, '/site', 'acme.example.com')).json(), { bound: { tenant: 'acme' } })
  assert.deepEqual((await get(app, '/site', 'localhost')).json(), { plain: true })
  // A literal host is matched as Fastify matches it: exactly, port included.
  assert.deepEqual((await get(app, '/site', 'admin.example.com:8080')).json(), { bound: { tenant: 'admin' } })
})

test('a handler\'s own host constraint gives its @HostParam values; guards see the route as usual', async (t) => {
  @Controller({ path: 'mixed', host: ':tenant.example.com' })
  @UseGuards({ canActivate: (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<any>().headers['x-ok'] === 'yes' })
  class MixedController {
    @Get('own') @RouteConstraints({ host: /^(?<team>[a-z]+)\.teams\.test$/ })
    own (@HostParam('team') team: string) { return { team } }

    @Get(':id') item (@HostParam('tenant') tenant: string, @Param('id', ParseIntPipe) id: number) { return { tenant, id } }
  }
  @Module({ controllers: [MixedController] })
  class AppModule {}
  const app = await build(t, AppModule)
  const headers = { 'x-ok': 'yes' }
  assert.deepEqual((await app.inject({ url: '/mixed/own', headers: { ...headers, host: 'red.teams.test' } })).json(), { team: 'red' })
  assert.equal((await app.inject({ url: '/mixed/own', headers: { ...headers, host: 'red.other.test' } })).statusCode, 404)
  assert.deepEqual((await app.inject({ url: '/mixed/7', headers: { ...headers, host: 'acme.example.com' } })).json(), { tenant: 'acme', id: 7 })
  assert.equal((await app.inject({ url: '/mixed/7', headers: { host: 'acme.example.com' } })).statusCode, 403)
})

test('two controllers with the same host pattern on one path collide; different patterns do not', async (t) => {
  @Controller({ path: 'p', host: ':a.example.com' })
  class A1 { @Get() one () { return 1 } }
  @Controller({ path: 'p', host: ':a.example.com' })
  class A2 { @Get() two () { return 2 } }
  @Module({ controllers: [A1, A2] })
  class Clash {}
  const error = await registrationError({ module: Clash })
  assert.equal(error.code, 'FDP_ERR_DUPLICATE_ROUTE')
  assert.match(error.message, /A1\.one and A2\.two both handle GET \/p with constraints \{host=/)

  @Controller({ path: 'p', host: ':a.example.org' })
  class B1 { @Get() one () { return 'org' } }
  @Module({ controllers: [A1, B1] })
  class Fine {}
  const app = await build(t, Fine)
  assert.equal((await get(app, '/p', 'x.example.org')).body, 'org')
  assert.equal((await get(app, '/p', 'x.example.com')).body, '1')
})

test('@HostParam on a route that can never fill it fails registration naming the handler', async () => {
  @Controller('nohost')
  class NoHost { @Get() get (@HostParam('tenant') tenant: string) { return tenant } }
  @Module({ controllers: [NoHost] })
  class NoHostModule {}
  const none = await registrationError({ module: NoHostModule })
  assert.equal(none.code, 'FDP_ERR_INVALID_DECLARATION')
  assert.equal(none.message, 'NoHost.get: @HostParam() reads the request\'s host parameters, but the route is bound to no host. Give its controller a host pattern, e.g. @Controller({ host: \':tenant.example.com\' }).')

  @Controller({ host: [':tenant.example.com', 'static.test', /^(?<shop>\w+)\.shop$/] })
  class WrongName { @Get() get (@HostParam('account') account: string) { return account } }
  @Module({ controllers: [WrongName] })
  class WrongNameModule {}
  const wrong = await registrationError({ module: WrongNameModule })
  assert.equal(wrong.code, 'FDP_ERR_INVALID_DECLARATION')
  assert.equal(wrong.message, 'WrongName.get: @HostParam(\'account\') names a parameter no host of the route has (hosts ":tenant.example.com", "static.test", /^(?<shop>\\w+)\\.shop$/; their parameters are "tenant", "shop"). Add ":account" to a host pattern or read another parameter.')

  @Controller({ host: 'static.test' })
  class Literal { @Get() get (@HostParam('x') x: string) { return x } }
  @Module({ controllers: [Literal] })
  class LiteralModule {}
  assert.match((await registrationError({ module: LiteralModule })).message, /\(hosts "static\.test"; none has parameters\)/)
})

test('host patterns and @HostParam are checked at declaration', () => {
  const declare = (host: unknown) => () => { @Controller({ host: host as string }) class Bad {} return Bad }
  assert.throws(declare('*.example.com'), { code: 'FDP_ERR_INVALID_DECLARATION', message: /host pattern "\*\.example\.com" uses syntax other than ":name" parameters/ })
  assert.throws(declare(':a.{:b}.test'), { code: 'FDP_ERR_INVALID_DECLARATION' })
  assert.throws(declare(':a:b.test'), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@Controller() on Bad: the host pattern ":a:b.test" has two parameters with nothing between them; separate them, e.g. ":a.:b".' })
  assert.throws(declare(':a.:a.test'), { message: '@Controller() on Bad: the host pattern ":a.:a.test" names the parameter "a" twice.' })
  assert.throws(declare(42), { message: '@Controller() on Bad: "host" takes a host name, a pattern such as ":tenant.example.com", a RegExp or a list of them, given number 42.' })
  assert.throws(declare(['ok.test', '']), { code: 'FDP_ERR_INVALID_DECLARATION' })
  // A port is not a parameter, nor is an IPv6 address: such hosts stay literal ones.
  assert.doesNotThrow(declare('localhost:3000'))
  assert.doesNotThrow(declare('[::1]:3000'))
  assert.throws(() => HostParam(1 as any), { code: 'FDP_ERR_INVALID_DECLARATION', message: '@HostParam() takes a host parameter name, given number 1.' })
})

test('a literal host with a port is still matched exactly', async (t) => {
  @Controller({ path: 'dev', host: 'localhost:3000' })
  class Dev { @Get() get () { return 'dev' } }
  @Module({ controllers: [Dev] })
  class DevModule {}
  const app = await build(t, DevModule)
  assert.equal((await get(app, '/dev', 'localhost:3000')).body, 'dev')
  assert.equal((await get(app, '/dev', 'localhost')).statusCode, 404)
})
