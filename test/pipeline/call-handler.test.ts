import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Observable, catchError, defer, map, of, retry, tap, toArray } from 'rxjs'
import {
  Controller, Get, Inject, Injectable, Module, NotFoundException, Param, Scope, UseInterceptors,
  type CallHandler, type ExecutionContext, type HandleResult, type NestInterceptor
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { runWatched } from '../helpers/lazy-loading.js'

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

test('each interceptor gets a next of its own: only handle shows, it works detached, and a subscription runs the rest from the next interceptor', async (t) => {
  const nexts: CallHandler[] = []
  const calls: string[] = []
  const detached = (name: string): NestInterceptor => ({
    intercept: (ctx, next) => {
      nexts.push(next)
      calls.push(name)
      // As with NestJS's `next`, handle needs no `this`.
      const { handle } = next
      return handle().pipe(map((value) => `${name}(${String(value)})`))
    }
  })
  const awaiting: NestInterceptor = {
    intercept: async (ctx, next) => {
      nexts.push(next)
      const { handle } = next
      return `awaited(${String(await handle())})`
    }
  }
  @Controller('nexts')
  class NextsController {
    @Get()
    @UseInterceptors({ intercept: (ctx, next) => next.handle().pipe(retry(1)) }, detached('outer'), awaiting, detached('inner'))
    get () {
      calls.push('handler')
      if (calls.filter((call) => call === 'handler').length === 1) throw new Error('first try')
      return 'ok'
    }
  }
  @Module({ controllers: [NextsController] })
  class NextsModule {}
  const app = await build(t, NextsModule)
  const response = await app.inject('/nexts')
  assert.equal(response.statusCode, 200)
  assert.equal(response.body, 'outer(awaited(inner(ok)))')
  // retry() subscribed again to the first interceptor's next: the three after it ran again.
  assert.deepEqual(calls, ['outer', 'inner', 'handler', 'outer', 'inner', 'handler'])
  assert.equal(nexts.length, 6)
  assert.equal(new Set(nexts).size, 6)
  for (const next of nexts) assert.deepEqual(Object.keys(next), ['handle'])
})

test('request-scoped interceptors, alone or between static ones, built now or later: each gets the context, its place in the chain and one instance per request', async (t) => {
  let built = 0
  @Injectable({ scope: Scope.REQUEST })
  class Counting implements NestInterceptor {
    readonly id = ++built
    intercept (ctx: ExecutionContext, next: CallHandler) {
      return next.handle().pipe(map((value) => ({ counted: this.id, handler: ctx.getHandler().name, value })))
    }
  }
  // Its dependency is built asynchronously for each request, so the interceptor is pending.
  @Injectable({ scope: Scope.REQUEST })
  class Late implements NestInterceptor {
    constructor (@Inject('late') private readonly late: string) {}
    async intercept (ctx: ExecutionContext, next: CallHandler) { return { [this.late]: ctx.getClass().name, value: await next.handle() } }
  }
  @Controller('scoped-interceptors')
  class ScopedInterceptors {
    @Get('alone') @UseInterceptors(Counting) alone () { return 'a' }
    @Get('late') @UseInterceptors(Late) late () { return 'l' }
    @Get('between') @UseInterceptors(named('outer'), Counting, Late, named('inner')) between () { return 'b' }
  }
  @Module({ controllers: [ScopedInterceptors], providers: [{ provide: 'late', scope: Scope.REQUEST, useFactory: async () => 'late' }] })
  class ScopedModule {}
  const app = await build(t, ScopedModule)
  assert.deepEqual((await app.inject('/scoped-interceptors/alone')).json(), { counted: 1, handler: 'alone', value: 'a' })
  assert.deepEqual((await app.inject('/scoped-interceptors/alone')).json(), { counted: 2, handler: 'alone', value: 'a' })
  assert.deepEqual((await app.inject('/scoped-interceptors/late')).json(), { late: 'ScopedInterceptors', value: 'l' })
  assert.deepEqual((await app.inject('/scoped-interceptors/between')).json(),
    ['outer', { counted: 3, handler: 'between', value: { late: 'ScopedInterceptors', value: ['inner', 'b'] } }])
})

test('rxjs is loaded for an application with interceptors, and only then', async () => {
  // NestJS is hidden: it imports rxjs itself.
  const withoutNest = { HIDE_NEST: '1' }
  assert.deepEqual(await runWatched('without-interceptors', withoutNest), ['{"plain":true}', 'imported: none'])
  assert.deepEqual(await runWatched('with-interceptors', withoutNest), ['{"data":"wrapped"}', 'imported: rxjs'])
})

test('without rxjs, next.handle() is a promise (an Observable-like on an event stream): for one interceptor or several, detached, rejected on a sync throw', async () => {
  assert.deepEqual(await runWatched('without-rxjs', { HIDE_NEST: '1', HIDE_RXJS: '1' }), [
    '{"only":"one"}',
    '{"outer":{"inner":"several"}}',
    '{"caught":"sync throw"}',
    'short',
    JSON.stringify('\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n'),
    // A handle() nobody awaits has run the handler all the same: a promise does not wait to be subscribed to.
    'only, outer, inner, unused',
    '{"only":"one"}',
    'imported: none'
  ])
})
