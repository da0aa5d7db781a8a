import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import {
  Catch, Controller, Get, HttpException, Inject, Injectable, Module, Query, UseFilters, UseGuards, UseInterceptors, UsePipes, decoratorPlugin
} from '../../plugin/index.js'
import type { CallHandler, ExecutionContext } from '../../types/index.js'
import { buildApp, captureLogs, escapes } from './helpers.js'

// Every way a piece of user code can fail; `mode` picks one per request.
const failures: Record<string, () => unknown> = {
  'an Error': () => { throw new Error('boom') },
  'a string': () => { throw 'boom' }, // eslint-disable-line no-throw-literal
  null: () => { throw null }, // eslint-disable-line no-throw-literal
  undefined: () => { throw undefined }, // eslint-disable-line no-throw-literal
  'a rejected promise': () => Promise.reject(new Error('boom')),
  'a promise rejected with undefined': () => Promise.reject(undefined) // eslint-disable-line prefer-promise-reject-errors
}
let mode = 'an Error'
const fail = (): any => failures[mode]()

class FailingGuard { canActivate () { return fail() } }
class FailingPipe { transform () { return fail() } }
class FailsBefore { intercept () { return fail() } }
class FailsAfter {
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    await next.handle()
    return fail()
  }
}
@Catch() class FailingFilter { catch () { return fail() } }

@Controller()
class FaultController {
  @Get('handler') handler () { return fail() }
  @Get('guard') @UseGuards(FailingGuard) guard () { return 'unreachable' }
  @Get('pipe') @UsePipes(FailingPipe) pipe (@Query() query: unknown) { return 'unreachable' }
  @Get('interceptor-before') @UseInterceptors(FailsBefore) before () { return 'unreachable' }
  @Get('interceptor-after') @UseInterceptors(FailsAfter) after () { return 'handled' }
  @Get('filter') @UseFilters(FailingFilter) filter () { throw new HttpException('caught by the filter', 400) }
  @Get('ok') ok () { return { ok: true } }
}

@Module({ controllers: [FaultController], providers: [FailingGuard, FailingPipe, FailsBefore, FailsAfter, FailingFilter] })
class FaultModule {}

const places = {
  handler: 'Unhandled exception',
  guard: 'Unhandled exception',
  pipe: 'Unhandled exception',
  'interceptor-before': 'Unhandled exception',
  'interceptor-after': 'Unhandled exception',
  filter: 'Exception filter FailingFilter threw'
}

for (const [place, message] of Object.entries(places)) {
  const label = place.startsWith('interceptor') ? `an interceptor (${place.slice(12)} next)` : `a ${place}`
  test(`${label} that throws an Error, a string, null or undefined or rejects: a clean 500, logged once with the request id, the next request served`, async (t) => {
    const logs = captureLogs()
    const app = await buildApp(t, FaultModule, { logger: { stream: logs.stream }, requestIdHeader: 'x-request-id' })
    const escaped = escapes(t)

    for (const failure of Object.keys(failures)) {
      mode = failure
      const id = `${place}-${failure.replaceAll(' ', '-')}`
      const what = `${place} failing with ${failure}`
      logs.lines.length = 0
      const res = await app.inject({ url: `/${place}`, headers: { 'x-request-id': id } })
      assert.equal(res.statusCode, 500, what)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', what)
      assert.deepEqual(res.json(), { statusCode: 500, message: 'Internal server error' }, what)

      const errors = logs.errors()
      assert.equal(errors.length, 1, `${what}: logged once, got ${JSON.stringify(errors)}`)
      assert.equal(errors[0].reqId, id, what)
      assert.equal(errors[0].msg, message, what)
      const thrown = failure === 'a string' ? 'boom' : failure.replace('a promise rejected with ', '')
      const expected = failure === 'an Error' || failure === 'a rejected promise' ? 'boom' : `A non-Error value was thrown: ${thrown}`
      assert.equal(errors[0].err?.message, expected, what)

      const next = await app.inject('/ok')
      assert.deepEqual([next.statusCode, next.json()], [200, { ok: true }], `after ${what}`)
    }
    // Let any stray rejection surface before checking that none escaped.
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(escaped, [])
  })
}

test('a provider factory that throws at start fails ready() with the cause, naming the provider; the app still closes', async () => {
  const cause = new Error('database unreachable')

  @Injectable()
  class Repository { constructor (@Inject('DB') readonly db: unknown) {} }

  for (const [factory, given] of [[() => { throw cause }, cause], [async () => { throw 'no' }, 'no']] as const) { // eslint-disable-line no-throw-literal
    @Module({ providers: [{ provide: 'DB', useFactory: factory }, Repository], exports: [Repository] })
    class DataModule {}
    @Module({ imports: [DataModule] })
    class RootModule {}

    const app = Fastify()
    app.get('/plain', async () => ({ plain: true }))
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: RootModule }).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_PROVIDER_FAILED')
      assert.equal(error.cause, given)
      assert.match(error.message, /^"DB" \(provider of DataModule\) could not be built: /)
      assert.ok(error.message.includes(given === cause ? 'database unreachable' : 'no'), error.message)
      return true
    })
    await app.close()
  }
})
