import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hasMethod } from '../../plugin/util/has-method.js'

test('hasMethod looks on the prototype of a class and on an instance itself', () => {
  class Pipe { transform () {} }
  assert.equal(hasMethod(Pipe, 'transform'), true)
  assert.equal(hasMethod(new Pipe(), 'transform'), true)
  assert.equal(hasMethod({ transform: () => {} }, 'transform'), true)
  assert.equal(hasMethod({ transform: 1 }, 'transform'), false)
  assert.equal(hasMethod(() => {}, 'transform'), false)
  for (const value of [null, undefined, 'transform', 1]) assert.equal(hasMethod(value, 'transform'), false)
})
