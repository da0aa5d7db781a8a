import { test } from 'node:test'
import assert from 'node:assert/strict'
import { andThen, isThenable, promised, steps, whenAll } from '../../plugin/util/thenable.js'

test('andThen calls on at once when the value is there, after it settles when it is pending', async () => {
  const seen: unknown[] = []
  const next = (value: number, a: string | undefined, b: string | undefined) => { seen.push([value, a, b]); return value + 1 }
  assert.equal(andThen(1, next, 'a', 'b'), 2)
  assert.deepEqual(seen, [[1, 'a', 'b']])
  const later = andThen(Promise.resolve(5), next)
  assert.equal(isThenable(later), true)
  assert.equal(await later, 6)
  // A thenable that is not a native promise is waited for too.
  const thenable = { then (resolve: (value: number) => void) { resolve(9) } } as unknown as PromiseLike<number>
  assert.equal(await andThen(thenable, next), 10)
  await assert.rejects(Promise.resolve(andThen(Promise.reject(new Error('no')), next)), /no/)
})

test('whenAll gives the same array when nothing is pending, else a promise of the settled values', async () => {
  const ready = [1, 2]
  assert.equal(whenAll(ready), ready)
  assert.deepEqual(await whenAll([1, Promise.resolve(2)]), [1, 2])
})

test('steps runs synchronously while each step has its value, and waits where one is pending', async () => {
  const add = (value: number, i: number, by: number) => value + i * by
  assert.equal(steps(0, 4, add, 10, undefined), 60)
  const order: number[] = []
  const slow = (value: number, i: number) => {
    order.push(i)
    return i === 1 ? Promise.resolve(value + 1) : value + 1
  }
  const pending = steps(0, 4, slow, undefined, undefined)
  assert.equal(isThenable(pending), true)
  assert.deepEqual(order, [0, 1])
  assert.equal(await pending, 4)
  assert.deepEqual(order, [0, 1, 2, 3])
  assert.throws(() => steps(0, 2, () => { throw new Error('sync') }, undefined, undefined), /sync/)
})

test('promised turns a throw into a rejection', async () => {
  assert.equal(await promised(() => 3), 3)
  await assert.rejects(promised(() => { throw new Error('thrown') }), /thrown/)
})
