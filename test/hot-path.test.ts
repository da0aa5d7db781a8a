import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { RouteOptions } from 'fastify'
import {
  Controller, Get, Inject, Injectable, Module, Param, ParseIntPipe, REQUEST, Scope, UseGuards, UseInterceptors,
  type CallHandler, type ExecutionContext
} from '../plugin/index.js'
import { build } from './helpers/app.js'

// Per request, the plugin makes no promise of its own unless a guard, pipe, interceptor,
// provider or handler gives one: routes are called here directly, without Fastify around them.

@Injectable({ scope: Scope.REQUEST })
class RequestInfo {
  readonly id: unknown
  constructor (@Inject(REQUEST) request: { headers: Record<string, unknown> }) { this.id = request.headers['x-id'] }
}

@Controller('scoped')
class ScopedController {
  constructor (@Inject(RequestInfo) private readonly info: RequestInfo) {}
  @Get() get () { return { id: this.info.id } }
}

@Controller('users')
@UseGuards({ canActivate: (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<any>().headers.authorization === 'yes' })
class UsersController {
  @Get(':id') find (@Param('id', ParseIntPipe) id: number) { return { id } }
}

@Controller('wrapped')
class WrappedController {
  @Get()
  // Not async: what handle() returns is all it has.
  @UseInterceptors({ intercept: (ctx: ExecutionContext, next: CallHandler) => next.handle().catch((error: Error) => ({ caught: error.message })) })
  fails (): never { throw new Error('sync throw') }
}

@Module({ controllers: [ScopedController, UsersController, WrappedController], providers: [RequestInfo] })
class AppModule {}

async function routesOf (t: Parameters<typeof build>[0]) {
  const routes = new Map<string, RouteOptions>()
  const app = await build(t, AppModule, {}, (app) => {
    app.addHook('onRoute', (route) => { if (route.method !== 'HEAD') routes.set(route.url, route) })
  })
  return { app, routes }
}

const fakeReply = {} as any

test('a route with a synchronous pipe answers without a promise; a bad value throws for Fastify to send', async (t) => {
  const { app, routes } = await routesOf(t)
  const handler = routes.get('/users/:id')!.handler as Function
  assert.deepEqual(handler({ params: { id: '42' }, headers: {} }, fakeReply), { id: 42 })
  assert.throws(() => handler({ params: { id: 'x' }, headers: {} }, fakeReply), { message: 'Validation failed (numeric string is expected)' })
  assert.equal((await app.inject('/users/x')).statusCode, 403)
  const bad = await app.inject({ url: '/users/x', headers: { authorization: 'yes' } })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { message: 'Validation failed (numeric string is expected)', error: 'Bad Request', statusCode: 400 })
})

test('synchronous guards call done before the hook returns, with the 403 when one says no', async (t) => {
  const { routes } = await routesOf(t)
  const hook = [routes.get('/users/:id')!.preValidation].flat()[0] as Function
  const calls: unknown[][] = []
  const returned = hook({ headers: { authorization: 'yes' } }, fakeReply, (...args: unknown[]) => calls.push(args))
  assert.equal(returned, undefined)
  assert.deepEqual<unknown[][]>(calls, [[]])
  hook({ headers: {} }, fakeReply, (...args: unknown[]) => calls.push(args))
  assert.equal(calls.length, 2)
  assert.equal((calls[1][0] as any).getStatus(), 403)
})

test('a request-scoped controller with synchronous providers is built without a promise, once per request', async (t) => {
  const { app, routes } = await routesOf(t)
  const handler = routes.get('/scoped')!.handler as Function
  assert.deepEqual(handler({ headers: { 'x-id': 'a' } }, fakeReply), { id: 'a' })
  assert.deepEqual(handler({ headers: { 'x-id': 'b' } }, fakeReply), { id: 'b' })
  assert.deepEqual((await app.inject({ url: '/scoped', headers: { 'x-id': 'c' } })).json(), { id: 'c' })
})

test('a handler that throws synchronously behind an interceptor gives handle() a rejected promise', async (t) => {
  const { app } = await routesOf(t)
  const response = await app.inject('/wrapped')
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), { caught: 'sync throw' })
})
