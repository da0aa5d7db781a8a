import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { RouteOptions } from 'fastify'
import {
  Body, Controller, ForbiddenException, Get, Inject, Injectable, Module, Param, ParseIntPipe, Post, REQUEST, Redirect, Scope, UseGuards, UseInterceptors,
  type CallHandler, type ExecutionContext
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { map, throwError, type Observable } from 'rxjs'

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

const settledValue = Promise.resolve({ data: 'now' })
const passing = { intercept: (ctx: ExecutionContext, next: CallHandler) => next.handle() }

// Interceptors whose values are pending: a promise, a settled one, an Observable once settled.
@Controller('pending')
class PendingController {
  @Get()
  @UseInterceptors({ intercept: (ctx: ExecutionContext, next: CallHandler) => Promise.resolve(next.handle()).then((data) => ({ data })) })
  get () { return 'value' }

  @Get('settled')
  @UseInterceptors({ intercept: () => settledValue })
  settled () { return 'unused' }

  @Get('sync-observable')
  @UseInterceptors({ intercept: () => ({ subscribe: (s: { next: (v: unknown) => void, complete: () => void }) => { s.next('now'); s.complete() } }) })
  syncObservable () { return 'unused' }

  @Get('rx')
  @UseInterceptors({ intercept: (ctx: ExecutionContext, next: CallHandler) => (next.handle() as unknown as Observable<unknown>).pipe(map((data) => ({ data }))) })
  rx () { return 'now' }

  // next.handle() returned as it is, by one interceptor or nested ones: subscribed to, as NestJS does.
  @Get('passed')
  @UseInterceptors(passing, passing)
  passed () { return 'now' }

  @Get('passed-async')
  @UseInterceptors(passing)
  async passedAsync () { return 'later' }

  @Get('passed-throws')
  @UseInterceptors(passing)
  passedThrows (): never { throw new ForbiddenException('not passed') }

  @Get('sync-error')
  @UseInterceptors({ intercept: () => throwError(() => new ForbiddenException('no')) })
  syncError () { return 'unused' }

  @Get('observable')
  @UseInterceptors({ intercept: () => Promise.resolve({ subscribe: (s: { next: (v: unknown) => void, complete: () => void }) => { s.next('last'); s.complete() } }) })
  observable () { return 'unused' }

  @Get('redirect')
  @Redirect('/default')
  async redirect () { return { url: '/bad\r\nheader' } }
}

@Controller('created')
class CreatedController {
  @Post() create (@Body() body: unknown) { return { created: body } }
}

@Module({ controllers: [ScopedController, UsersController, WrappedController, PendingController, CreatedController], providers: [RequestInfo] })
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

test('a @Post route sets its 201 on the reply and gives the method\'s value back as it is, without a promise', async (t) => {
  const { app, routes } = await routesOf(t)
  const codes: number[] = []
  const reply = { code (status: number) { codes.push(status); return reply } }
  const value = (routes.get('/created')!.handler as Function)({ body: { a: 1 }, headers: {} }, reply)
  assert.deepEqual(value, { created: { a: 1 } })
  assert.deepEqual(codes, [201])
  const response = await app.inject({ method: 'POST', url: '/created', payload: { a: 2 } })
  assert.equal(response.statusCode, 201)
  assert.deepEqual(response.json(), { created: { a: 2 } })
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

test('a route with interceptors hands Fastify its pending value finished in Fastify\'s own reaction, not one more promise', async (t) => {
  const { app, routes } = await routesOf(t)
  const handler = (url: string) => (routes.get(url)!.handler as Function)({ headers: {} }, fakeReply) as PromiseLike<unknown>
  const settled = (url: string) => new Promise((resolve, reject) => { handler(url).then(resolve, reject) })
  assert.deepEqual(await settled('/pending'), { data: 'value' })
  // Once the interceptor's promise has settled, Fastify's callback runs in the very next turn.
  const order: string[] = []
  handler('/pending/settled').then(() => order.push('finished'))
  queueMicrotask(() => order.push('next turn'))
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(order, ['finished', 'next turn'])
  // An Observable that completes while subscribed (rxjs operators over a value) is read at once.
  assert.equal(handler('/pending/sync-observable'), 'now')
  assert.deepEqual(handler('/pending/rx'), { data: 'now' })
  assert.deepEqual((await app.inject('/pending/rx')).json(), { data: 'now' })
  // So is next.handle() handed back as it is, over a handler whose value is there.
  assert.equal(handler('/pending/passed'), 'now')
  assert.equal((await app.inject('/pending/passed')).body, 'now')
  assert.equal(await settled('/pending/passed-async'), 'later')
  await assert.rejects(settled('/pending/passed-throws'), { message: 'not passed' })
  assert.equal((await app.inject('/pending/passed-throws')).statusCode, 403)
  // One that fails at once fails as a rejection, as a pending one would.
  await assert.rejects(settled('/pending/sync-error'), { message: 'no' })
  const failed = await app.inject('/pending/sync-error')
  assert.equal(failed.statusCode, 403)
  assert.deepEqual(failed.json(), { statusCode: 403, message: 'no', error: 'Forbidden' })
  // An Observable the interceptor's promise gives is unwrapped, and a failure in finishing is a rejection.
  assert.equal(await settled('/pending/observable'), 'last')
  await assert.rejects(settled('/pending/redirect'), { code: 'FDP_ERR_INVALID_REDIRECT' })
  // Awaited as a promise (an onRoute wrapper), the same values.
  assert.deepEqual(await handler('/pending'), { data: 'value' })
  assert.deepEqual((await app.inject('/pending')).json(), { data: 'value' })
  assert.equal((await app.inject('/pending/observable')).body, 'last')
  assert.equal((await app.inject('/pending/redirect')).statusCode, 500)
})
