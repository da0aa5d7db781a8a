import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Hook, type CanActivate } from '../plugin/index.js'
import { hooksOf } from '../plugin/hooks.js'
import { enhancerLists } from '../plugin/enhancers.js'
import { kGuards, kHooks } from '../plugin/symbols.js'

type Lookup = 'getMetadata' | 'getOwnMetadata' | 'hasOwnMetadata'

// The keys reflect-metadata is asked about while `run` runs.
function keysAskedDuring (run: () => void): unknown[] {
  const asked: unknown[] = []
  const lookups: Lookup[] = ['getMetadata', 'getOwnMetadata', 'hasOwnMetadata']
  const originals = lookups.map((name) => Reflect[name])
  lookups.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown
    ;(Reflect as unknown as Record<Lookup, unknown>)[name] = (key: unknown, ...rest: unknown[]) => { asked.push(key); return original.call(Reflect, key, ...rest) }
  })
  try {
    run()
  } finally {
    lookups.forEach((name, i) => { (Reflect as unknown as Record<Lookup, unknown>)[name] = originals[i] })
  }
  return asked
}

const written = (globalThis as unknown as Record<symbol, Set<symbol>>)[Symbol.for('fastify-decorator-plugin.writtenKeys')]

class AllowAll implements CanActivate { canActivate () { return true } }

test('a key no decorator has written is absent from every class, without a lookup in reflect-metadata; once written, it is read there', () => {
  assert.ok(!written.has(kHooks) && !written.has(kGuards), 'no decorator of this file has run yet')
  class Plain {}
  const before = keysAskedDuring(() => {
    assert.deepEqual(hooksOf(Plain), [])
    assert.deepEqual(enhancerLists(Plain).guards, [])
  })
  assert.deepEqual(before.filter((key) => key === kHooks || key === kGuards), [])

  class Base {
    @Hook('onRequest') audit () {}
  }
  class Derived extends Base {}
  const after = keysAskedDuring(() => {
    assert.deepEqual(hooksOf(Derived).map((hook) => hook.key), ['audit'])
    assert.deepEqual(hooksOf(Plain), [])
  })
  assert.ok(after.includes(kHooks))
})

test('the written keys are shared by every copy of the package in the process, as the keys are', () => {
  // What another copy's decorator does: records its key in the shared set, writes through reflect-metadata.
  class Guarded {}
  written.add(kGuards)
  Reflect.defineMetadata(kGuards, [AllowAll], Guarded)
  assert.deepEqual(enhancerLists(Guarded).guards, [AllowAll])
})
