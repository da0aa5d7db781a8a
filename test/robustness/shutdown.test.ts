import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import Fastify from 'fastify'
import { Controller, Get, Inject, Injectable, Module, Param, REQUEST, Scope, decoratorPlugin } from '../../plugin/index.js'
import type { Request } from '../../plugin/index.js'
import { captureLogs, getWithValue, listen, request } from './helpers.js'

const events: string[] = []
let entered = 0
let release: () => void = () => {}
const gate = new Promise<void>((resolve) => { release = resolve })

function destroys (name: string, fails = false) {
  return function onModuleDestroy () {
    events.push(`destroy ${name}`)
    if (fails) throw new Error(`${name} could not flush`)
  }
}

@Injectable() class CoreService { onModuleDestroy = destroys('CoreService') }
@Module({ providers: [CoreService], exports: [CoreService] })
class CoreModule { onModuleDestroy = destroys('CoreModule') }

@Injectable()
class FeatureService {
  constructor (@Inject(CoreService) readonly core: CoreService) {}
  // Async and failing: the hooks after it must still run.
  async onModuleDestroy () {
    await new Promise((resolve) => setImmediate(resolve))
    destroys('FeatureService', true)()
  }
}
@Module({ imports: [CoreModule], providers: [FeatureService], exports: [FeatureService] })
class FeatureModule { onModuleDestroy = destroys('FeatureModule') }

@Controller('slow')
class SlowController {
  constructor (@Inject(FeatureService) readonly feature: FeatureService) {}
  onModuleDestroy = destroys('SlowController')

  @Get(':n')
  async slow (@Param('n') n: string) {
    entered++
    await gate
    events.push(`done ${n}`)
    return { n }
  }
}

@Module({ imports: [FeatureModule], controllers: [SlowController] })
class RootModule { onModuleDestroy = destroys('RootModule') }

test('close() while requests are in flight: they complete, then every onModuleDestroy runs once, in reverse module order, even if one throws', async () => {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: RootModule })
  const port = await listen(app)

  const inFlight = Array.from({ length: 10 }, (_, n) => request(port, `/slow/${n}`))
  for (let i = 0; i < 100_000 && entered < inFlight.length; i++) await new Promise((resolve) => setImmediate(resolve))
  assert.equal(entered, inFlight.length, 'every request reached its handler')

  let closed = false
  const closing = app.close().then(() => { closed = true }, (error: unknown) => { closed = true; throw error })
  // Give close() every chance to run the hooks early; it must wait for the handlers.
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve))
  assert.equal(closed, false)
  assert.deepEqual<string[]>(events, [])

  release()
  const responses = await Promise.all(inFlight)
  assert.deepEqual(responses.map(({ status, body }) => [status, JSON.parse(body)]), Array.from({ length: 10 }, (_, n) => [200, { n: String(n) }]))

  await assert.rejects(closing, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_LIFECYCLE_HOOK')
    assert.match(error.message, /FeatureService\.onModuleDestroy\(\) failed: FeatureService could not flush/)
    return true
  })

  const done = events.filter((event) => event.startsWith('done'))
  const destroyed = events.filter((event) => event.startsWith('destroy'))
  assert.equal(done.length, 10)
  assert.deepEqual(events.slice(0, 10).sort(), done.sort(), 'every request completed before the first hook')
  // Importers before what they import: the reverse of init order.
  assert.deepEqual(destroyed, [
    'destroy RootModule', 'destroy SlowController',
    'destroy FeatureModule', 'destroy FeatureService',
    'destroy CoreModule', 'destroy CoreService'
  ])
})

// close() while keep-alive clients keep sending: what a handler answered reaches its client,
// what came too late is refused cleanly (Fastify's 503 or a closed connection), nothing hangs.
let handled = 0
let inHandlers = 0
const destroyedWith: number[] = []

@Injectable({ scope: Scope.REQUEST })
class Echo {
  readonly value: string
  constructor (@Inject(REQUEST) request: Request) { this.value = request.headers['x-value'] as string }
}

@Injectable()
class Store { onModuleDestroy () { destroyedWith.push(inHandlers) } }

@Controller('echo')
class EchoController {
  constructor (@Inject(Echo) readonly echo: Echo, @Inject(Store) readonly store: Store) {}
  @Get() async get () {
    inHandlers++
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
    inHandlers--
    handled++
    return { value: this.echo.value }
  }
}

@Module({ controllers: [EchoController], providers: [Echo, Store] })
class EchoModule {}

const CLIENTS = 50

test(`close() under keep-alive load (${CLIENTS} connections): every answered request reaches its client, the rest are refused cleanly, onModuleDestroy runs once after the last handler`, async (t) => {
  const logs = captureLogs()
  const app = Fastify({ logger: { stream: logs.stream } })
  await app.register(decoratorPlugin, { module: EchoModule })
  const port = await listen(app)
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS })
  t.after(() => agent.destroy())

  const statuses = new Map<number, number>()
  const failures = new Map<string, number>()
  const wrong: string[] = []
  let sent = 0
  const worker = async (id: number) => {
    // Each client sends until it is refused: close() must refuse every one of them.
    for (let i = 0; ; i++) {
      const value = `${id}-${i}`
      sent++
      try {
        const { status, body } = await getWithValue(agent, port, '/echo', value)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        if (status === 200 && body !== JSON.stringify({ value })) wrong.push(`${value}: ${body}`)
        if (status !== 200) return
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
        failures.set(code, (failures.get(code) ?? 0) + 1)
        return
      }
    }
  }
  const workers = Array.from({ length: CLIENTS }, (_, id) => worker(id))
  // Handlers count up while this waits: read through a function, at each turn.
  const loaded = () => handled >= 1000
  for (let i = 0; i < 100_000 && !loaded(); i++) await new Promise((resolve) => setTimeout(resolve, 1))
  const started = Date.now()
  await app.close()
  const closeMs = Date.now() - started
  let timer: NodeJS.Timeout | undefined
  await Promise.race([Promise.all(workers), new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error('a client was never refused after close()')), 10_000) })])
  clearTimeout(timer)

  const answered = statuses.get(200) ?? 0
  t.diagnostic(`${sent} sent, ${answered} answered, statuses ${JSON.stringify([...statuses])}, client errors ${JSON.stringify([...failures])}, close() took ${closeMs} ms`)
  assert.deepEqual(wrong, [], 'each answer carries its own request\'s value')
  assert.equal(answered, handled, 'every request a handler answered reached its client')
  assert.ok(answered >= 1000)
  assert.deepEqual([...statuses.keys()].filter((status) => status !== 200 && status !== 503), [], 'refused requests get Fastify\'s 503, nothing else')
  assert.deepEqual([...failures.keys()].filter((code) => !['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'socket hang up'].includes(code)), [])
  assert.deepEqual(destroyedWith, [0], 'onModuleDestroy ran once, with no handler still running')
  assert.deepEqual(logs.errors(), [])
  assert.equal(app.server.listening, false)
})
