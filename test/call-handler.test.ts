import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Observable, catchError, defer, map, of, retry, tap, toArray } from 'rxjs'
import {
  Controller, Get, Module, NotFoundException, Param, UseInterceptors,
  type CallHandler, type ExecutionContext, type HandleResult, type NestInterceptor
} from '../plugin/index.js'
import { build } from './helpers/app.js'
import { runWatched } from './helpers/lazy-loading.js'

// next.handle() as NestJS interceptors use it: rxjs operators through .pipe(), while
// `await next.handle()` keeps working.

const runs: string[] = []

const wrap: NestInterceptor = { intercept: (ctx: ExecutionContext, next: CallHandler) => next.handle().pipe(map((data) => ({ data }))) }
const named = (name: string): NestInterceptor => ({ intercept: (ctx, next) => next.handle().pipe(map((data) => [name, data])) })

@Controller('rx')
@UseInterceptors(named('controller'))
class RxController {
  @Get('sync')
  @UseInterceptors(wrap)
  sync () { runs.push('sync'); return { id: 1 } }

  @Get('async/:id')
  @UseInterceptors(wrap)
  async async (@Param('id') id: string) { return { id } }

  // Every value of an Observable the handler returns goes through the operators; the last is sent.
  @Get('many')
  @UseInterceptors({ intercept: (ctx, next) => next.handle().pipe(map((n: number) => n * 10), toArray()) })
  many () { return of(1, 2, 3) }

  @Get('order')
  @UseInterceptors(named('outer'), named('inner'))
  order () { return 'handler' }

  @Get('retry')
  @UseInterceptors({ intercept: (ctx, next) => next.handle().pipe(retry(2)) })
  retried () {
    runs.push('retry')
    if (runs.filter((run) => run === 'retry').length < 3) throw new Error('flaky')
    return 'third time'
  }

  @Get('recover')
  @UseInterceptors({ intercept: (ctx, next) => next.handle().pipe(catchError((error: Error) => of({ recovered: error.message }))) })
  recover () { throw new NotFoundException('gone') }

  @Get('fails')
  @UseInterceptors({ intercept: (ctx, next) => next.handle().pipe(tap(() => runs.push('tap'))) })
  fails () { throw new NotFoundException('not here') }

  // A NestJS interceptor that decides asynchronously, then returns an Observable.
  @Get('promise-of-observable')
  @UseInterceptors({ intercept: async (ctx, next) => { await Promise.resolve(); return next.handle().pipe(map((value) => `${String(value)}!`)) } })
  promised () { return 'late' }

  @Get('awaited')
  @UseInterceptors({ intercept: async (ctx, next) => ({ awaited: await next.handle() }) })
  awaited () { return 'value' }

  @Get('unused')
  @UseInterceptors({ intercept: (ctx, next) => { next.handle(); return of('short') } })
  unused () { runs.push('unused'); return 'never' }

  @Get('defer')
  @UseInterceptors({ intercept: (ctx, next) => defer(() => next.handle()).pipe(map((value) => ({ deferred: value }))) })
  deferred () { return 'inner' }
}

@Module({ controllers: [RxController] })
class RxModule {}

test('next.handle().pipe(map(...)): the mapped value is sent, for sync, async and Observable handlers', async (t) => {
  const app = await build(t, RxModule)
  assert.deepEqual((await app.inject('/rx/sync')).json(), ['controller', { data: { id: 1 } }])
  assert.deepEqual((await app.inject('/rx/async/7')).json(), ['controller', { data: { id: '7' } }])
  assert.deepEqual((await app.inject('/rx/many')).json(), ['controller', [10, 20, 30]])
  assert.deepEqual((await app.inject('/rx/promise-of-observable')).json(), ['controller', 'late!'])
  assert.deepEqual((await app.inject('/rx/defer')).json(), ['controller', { deferred: 'inner' }])
})

test('piped interceptors nest as in NestJS: the innermost operators run first', async (t) => {
  const app = await build(t, RxModule)
  assert.deepEqual((await app.inject('/rx/order')).json(), ['controller', ['outer', ['inner', 'handler']]])
})

test('each subscription runs the rest of the chain again: retry() calls a failing handler again', async (t) => {
  const app = await build(t, RxModule)
  runs.length = 0
  const response = await app.inject('/rx/retry')
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), ['controller', 'third time'])
  assert.deepEqual(runs, ['retry', 'retry', 'retry'])
})

test('errors flow through the operators: catchError recovers, otherwise the filters answer', async (t) => {
  const app = await build(t, RxModule)
  assert.deepEqual((await app.inject('/rx/recover')).json(), ['controller', { recovered: 'gone' }])
  runs.length = 0
  const failed = await app.inject('/rx/fails')
  assert.equal(failed.statusCode, 404)
  assert.deepEqual(failed.json(), { statusCode: 404, message: 'not here', error: 'Not Found' })
  assert.deepEqual(runs, [])
})

test('await next.handle() still gives the result; a handle() nobody subscribes to or awaits runs nothing', async (t) => {
  const app = await build(t, RxModule)
  assert.deepEqual((await app.inject('/rx/awaited')).json(), ['controller', { awaited: 'value' }])
  runs.length = 0
  assert.deepEqual((await app.inject('/rx/unused')).json(), ['controller', 'short'])
  assert.deepEqual(runs, [])
})

test('what next.handle() gives is an rxjs Observable and a promise at once', async (t) => {
  let given: HandleResult<unknown> | undefined
  @Controller('peek')
  class PeekController {
    @Get()
    @UseInterceptors({ intercept: (ctx, next) => { given = next.handle(); return given } })
    peek () { return 'seen' }
  }
  @Module({ controllers: [PeekController] })
  class PeekModule {}
  const app = await build(t, PeekModule)
  assert.equal((await app.inject('/peek')).body, 'seen')
  assert.ok(given instanceof Observable)
  assert.equal(typeof given.then, 'function')
  assert.equal(typeof given.catch, 'function')
  assert.equal(typeof given.finally, 'function')
})

test('rxjs is loaded for an application with interceptors, and only then', async () => {
  // NestJS is hidden: it imports rxjs itself.
  const withoutNest = { HIDE_NEST: '1' }
  assert.deepEqual(await runWatched('without-interceptors', withoutNest), ['{"plain":true}', 'imported: none'])
  assert.deepEqual(await runWatched('with-interceptors', withoutNest), ['{"data":"wrapped"}', 'imported: rxjs'])
})
