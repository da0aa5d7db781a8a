import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { Controller, Get, Inject, Injectable, Module, Param, decoratorPlugin } from '../../plugin/index.js'
import { listen, request } from './helpers.js'

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
  assert.deepEqual(events, [])

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
