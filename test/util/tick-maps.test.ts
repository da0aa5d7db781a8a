import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module } from '../../plugin/index.js'
import { keepTickMaps, keptTick } from '../../plugin/util/tick-maps.js'

@Module({})
class AppModule {}

test('registering the plugin keeps one of Node\'s tick objects alive, and only one', async (t) => {
  assert.equal(keptTick(), undefined)
  const app = Fastify()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  const tick = keptTick() as Record<string | symbol, unknown>
  // Node's tick object: the async id keys whose maps the plugin means to keep.
  assert.deepEqual(Object.getOwnPropertySymbols(tick).map(String), ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'])
  assert.equal(typeof tick.callback, 'function')
  keepTickMaps()
  await new Promise((resolve) => process.nextTick(resolve))
  assert.equal(keptTick(), tick)
})
