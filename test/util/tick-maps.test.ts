import { test } from 'node:test'
import assert from 'node:assert/strict'
import '../../plugin/index.js'
import { keepTickMaps, keptTick } from '../../plugin/util/tick-maps.js'

test('importing the plugin keeps one of Node\'s tick objects alive before any app starts, and only one', async () => {
  await new Promise((resolve) => setImmediate(resolve))
  const tick = keptTick() as Record<string | symbol, unknown>
  // Node's tick object: the async id keys whose maps are meant to be kept.
  assert.deepEqual(Object.getOwnPropertySymbols(tick).map(String), ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'])
  assert.equal(typeof tick.callback, 'function')
  keepTickMaps()
  await new Promise((resolve) => process.nextTick(resolve))
  assert.equal(keptTick(), tick)
})
