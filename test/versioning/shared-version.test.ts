import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { sharedVersionStrategy } from '../../plugin/versioning/shared-version.js'

// Fastify's own strategy, from the router Fastify ships with: the reference for the app's routes.
const require = createRequire(import.meta.url)
const builtIn = createRequire(require.resolve('fastify'))('find-my-way/lib/strategies/accept-version')

const part = fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constantFrom('x', '*', '', '01', 'a'))
const version = fc.oneof(
  fc.tuple(part, part, part).map((parts) => parts.join('.')),
  fc.tuple(part, part).map((parts) => parts.join('.')),
  part,
  fc.constantFrom('1.2.3.4', '1..2', ' 1', '1.2.3-beta', '')
)

function outcome (run: () => unknown): unknown {
  try {
    return { value: run() }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

test('the shared version store matches exactly as Fastify\'s semver store, whatever is registered and asked', () => {
  fc.assert(fc.property(fc.array(version, { maxLength: 12 }), fc.array(version, { maxLength: 20 }), (registered, asked) => {
    const ours = sharedVersionStrategy.storage()
    const theirs = builtIn.storage()
    registered.forEach((value, index) => {
      // As find-my-way builds a node's store: each route's bit added to what its version had.
      assert.deepEqual(outcome(() => ours.set(value, (Number(ours.get(value)) || 0) | (1 << index)) && 'set'), outcome(() => theirs.set(value, (theirs.get(value) || 0) | (1 << index)) && 'set'), `set ${value}`)
    })
    for (const value of [...asked, ...registered]) assert.equal(ours.get(value), theirs.get(value), `get ${value} after ${JSON.stringify(registered)}`)
  }), { numRuns: 2000 })
})

test('the shared strategy reads Accept-Version as Fastify does, validates as it does, and never makes other routes 404', () => {
  assert.equal(sharedVersionStrategy.name, builtIn.name)
  assert.equal(sharedVersionStrategy.mustMatchWhenDerived, false)
  assert.equal(builtIn.mustMatchWhenDerived, true)
  const request = { headers: { 'accept-version': '1.x' } } as any
  assert.equal(sharedVersionStrategy.deriveConstraint(request), '1.x')
  assert.equal(sharedVersionStrategy.deriveConstraint({ headers: {} } as any), undefined)
  for (const value of ['1.2.3', 1, null, undefined, {}]) {
    assert.deepEqual(outcome(() => sharedVersionStrategy.validate(value)), outcome(() => builtIn.validate(value)), String(value))
  }
})
