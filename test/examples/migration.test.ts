import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp } from '../../examples/migration/app.js'
import { Db } from '../../examples/migration/db.js'
import { OrdersRepository } from '../../examples/migration/orders.module.js'

const key = { 'x-api-key': 'secret' }

async function ready (t: { after (fn: () => unknown): void }, db?: Db) {
  const app = await buildApp({ db })
  t.after(() => app.close())
  await app.ready()
  return app
}

test('the existing plain routes answer as before', async (t) => {
  const app = await ready(t)
  assert.deepEqual((await app.inject({ url: '/users', headers: key })).json(), [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }])
  assert.deepEqual((await app.inject({ url: '/users/2', headers: key })).json(), { id: 2, name: 'Bob' })
  const missing = await app.inject({ url: '/users/9', headers: key })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'User not found' })
})

test('the decorated module serves its routes beside them, through the app\'s db client', async (t) => {
  const app = await ready(t)
  assert.deepEqual((await app.inject({ url: '/users/1/orders', headers: key })).json(), [])
  const created = await app.inject({ method: 'POST', url: '/users/1/orders', headers: key, payload: { item: 'book' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { id: 1, userId: 1, item: 'book' })
  assert.deepEqual((await app.inject({ url: '/users/1/orders', headers: key })).json(), [{ id: 1, userId: 1, item: 'book' }])
  // What the decorated route wrote is in the app's own db client.
  assert.deepEqual(await app.db.select('orders'), [{ id: 1, userId: 1, item: 'book' }])
})

test('the provider reads exactly the db client the app decorated', async (t) => {
  const db = new Db({ users: [{ id: 7, name: 'Eve' }], orders: [{ id: 1, userId: 7, item: 'lamp' }] })
  const app = await ready(t, db)
  assert.equal(app.db, db)
  assert.deepEqual((await app.inject({ url: '/users/7/orders', headers: key })).json(), [{ id: 1, userId: 7, item: 'lamp' }])
  assert.deepEqual(await app.container.get(OrdersRepository).forUser(7), [{ id: 1, userId: 7, item: 'lamp' }])
})

test('the app\'s onRequest hook guards plain and decorated routes alike', async (t) => {
  const app = await ready(t)
  for (const url of ['/users', '/users/1/orders']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 401, url)
    assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing or wrong x-api-key' })
  }
})

test('errors of the decorated routes use the plugin\'s format; the app keeps serving', async (t) => {
  const app = await ready(t)
  const unknownUser = await app.inject({ method: 'POST', url: '/users/9/orders', headers: key, payload: { item: 'x' } })
  assert.equal(unknownUser.statusCode, 404)
  assert.deepEqual(unknownUser.json(), { statusCode: 404, message: 'User 9 not found', error: 'Not Found' })
  const noItem = await app.inject({ method: 'POST', url: '/users/1/orders', headers: key, payload: {} })
  assert.deepEqual(noItem.json(), { statusCode: 400, message: 'item must be a non-empty string', error: 'Bad Request' })
  const badId = await app.inject({ url: '/users/x/orders', headers: key })
  assert.equal(badId.statusCode, 400)
  assert.deepEqual((await app.inject({ url: '/users/1', headers: key })).json(), { id: 1, name: 'Ann' })
})
