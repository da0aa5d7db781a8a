import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import v8 from 'node:v8'
import vm from 'node:vm'
import {
  Body, Controller, Get, Hook, Inject, Injectable, Module, Post, Query, REQUEST, Scope, UseGuards, UseInterceptors, UsePipes
} from '../../plugin/index.js'
import type { CallHandler, Request } from '../../plugin/index.js'
import { buildApp, captureLogs, connections, escapes, listen, sendRaw, until } from './helpers.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

// Clients that go away at every step of the pipeline, over real sockets on 127.0.0.1.
const PER_STAGE = 20

let release: () => void = () => {}
let gate = Promise.resolve()
const entered = new Map<string, number>()
const finished = new Map<string, number>()
const count = (map: Map<string, number>, stage: string) => map.set(stage, (map.get(stage) ?? 0) + 1)

/** Waits at the gate: the client is gone by the time the step goes on. */
async function step (stage: string): Promise<void> {
  count(entered, stage)
  await gate
  count(finished, stage)
}

// Every request-scoped instance built, weakly: none may outlive its aborted request.
const built: Array<WeakRef<object>> = []

@Injectable({ scope: Scope.REQUEST })
class RequestState {
  readonly ballast = new Array(256).fill(0)
  constructor (@Inject(REQUEST) readonly request: Request) { built.push(new WeakRef(this)) }
}

class SlowGuard { async canActivate () { await step('guard'); return true } }
class SlowInterceptor {
  async intercept (ctx: unknown, next: CallHandler) {
    await step('interceptor')
    return next.handle()
  }
}
class SlowPipe { async transform (value: unknown) { await step('pipe'); return value } }

@Controller({ path: 'abort', scope: Scope.REQUEST })
class AbortController {
  constructor (@Inject(RequestState) readonly state: RequestState) {}
  @Post('body') body (@Body() body: unknown) { return { body } }
  @Get('guard') @UseGuards(SlowGuard) guard () { return { at: 'guard' } }
  @Get('interceptor') @UseInterceptors(SlowInterceptor) interceptor () { return { at: 'interceptor' } }
  @Get('pipe') @UsePipes(SlowPipe) pipe (@Query() query: unknown) { return { query } }
  @Get('handler') async handler () { await step('handler'); return { at: 'handler' } }
  @Get('handler-throws') async throws () { await step('handler-throws'); throw new Error('failed after the client left') }
  @Get('response') response () { return 'x'.repeat(4 * 1024 * 1024) }
  @Get('ok') ok () { return { ok: this.state.request.headers['x-ok'] } }
}

// A request-scoped dependency whose async factory is still running when the client leaves.
@Controller('factory')
class FactoryController {
  constructor (@Inject('SLOW') readonly slow: { ready: boolean }) {}
  @Get() get () { return this.slow }
}

// Its answers fail in a hook, after the client has left: the last-resort 500 has nobody to go to.
@Controller('answer-fails')
class AnswerFailsController {
  @Hook('onSend') onSend () { throw new Error('hook failed after the client left') }
  @Get() async get () { await step('answer-fails'); return { at: 'answer-fails' } }
}

@Module({
  controllers: [AbortController, FactoryController, AnswerFailsController],
  providers: [
    RequestState, SlowGuard, SlowInterceptor, SlowPipe,
    { provide: 'SLOW', scope: Scope.REQUEST, inject: [RequestState], useFactory: async () => { await step('factory'); return { ready: true } } }
  ]
})
class AbortModule {}

test(`clients aborting at every step of the pipeline (${PER_STAGE} per step): each step finishes, nothing is logged as an error but real errors, nothing is retained, the server keeps serving`, async (t) => {
  const logs = captureLogs()
  const app = await buildApp(t, AbortModule, { logger: { stream: logs.stream } })
  const port = await listen(app)
  const escaped = escapes(t)
  gate = new Promise<void>((resolve) => { release = resolve })
  built.length = 0

  const gated = ['guard', 'interceptor', 'pipe', 'factory', 'handler', 'handler-throws', 'answer-fails']
  const sockets: net.Socket[] = []
  for (const stage of gated) {
    const url = stage === 'factory' || stage === 'answer-fails' ? `/${stage}` : `/abort/${stage}`
    for (let i = 0; i < PER_STAGE; i++) sockets.push(await sendRaw(port, `GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`))
    await until(() => (entered.get(stage) ?? 0) === PER_STAGE, `every ${stage} to start`)
  }
  // Half a body, and a response too large to be read at once.
  for (let i = 0; i < PER_STAGE; i++) {
    sockets.push(await sendRaw(port, 'POST /abort/body HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"half":'))
  }
  const reading: net.Socket[] = []
  for (let i = 0; i < PER_STAGE; i++) reading.push(await sendRaw(port, 'GET /abort/response HTTP/1.1\r\nHost: localhost\r\n\r\n'))
  await Promise.all(reading.map((socket) => new Promise((resolve) => socket.once('data', resolve))))

  for (const socket of [...sockets, ...reading]) socket.destroy()
  await until(async () => await connections(app.server) === 0, 'the server to drop the aborted connections')
  release()
  for (const stage of gated) await until(() => finished.get(stage) === PER_STAGE, `every ${stage} to finish`)

  // Let the answers to nobody go out, then look at what stayed.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const errors = logs.errors()
  const thrown = errors.filter((line) => line.err?.message === 'failed after the client left')
  assert.equal(thrown.length, PER_STAGE, 'a handler that throws is logged once, client or not')
  const hooks = errors.filter((line) => line.err?.message === 'hook failed after the client left')
  assert.equal(hooks.length, PER_STAGE, 'a hook that throws is logged once, client or not')
  assert.deepEqual(errors.filter((line) => !thrown.includes(line) && !hooks.includes(line)).map((line) => line.msg), [])
  assert.deepEqual(escaped, [])

  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
  // A half-sent body never reaches a handler, so its request builds no controller.
  // Nor does the controller without request-scoped dependencies.
  assert.equal(built.length, PER_STAGE * gated.length, 'one request-scoped state per request that reached its controller')
  const alive = built.filter((ref) => ref.deref() !== undefined).length
  assert.equal(alive, 0, `${alive} request-scoped instances outlived their aborted request`)

  const next = await app.inject({ url: '/abort/ok', headers: { 'x-ok': 'yes' } })
  assert.deepEqual([next.statusCode, next.json()], [200, { ok: 'yes' }])
})
