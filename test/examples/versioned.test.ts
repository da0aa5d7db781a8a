// Runs on tsc output: the example injects CatsService by type.
import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp } from '../../examples/versioned/app.js'

async function app (t: TestContext) {
  const instance = await buildApp()
  t.after(() => instance.close())
  await instance.ready()
  return instance
}

test('v1 and v2 of one resource are served side by side', async (t) => {
  const server = await app(t)
  const v1 = await server.inject('/api/v1/cats')
  assert.equal(v1.statusCode, 200)
  assert.deepEqual(v1.json(), [{ id: 1, name: 'Tom' }, { id: 2, name: 'Felix' }])
  const v2 = await server.inject('/api/v2/cats')
  assert.equal(v2.statusCode, 200)
  assert.deepEqual(v2.json(), { data: [{ id: 1, name: 'Tom', born: 2019 }, { id: 2, name: 'Felix', born: 2021 }], total: 2 })
  assert.equal((await server.inject('/api/v3/cats')).statusCode, 404)
  assert.equal((await server.inject('/api/cats')).statusCode, 404)
})

test('one handler answers both versions of a single cat', async (t) => {
  const server = await app(t)
  for (const version of ['v1', 'v2']) {
    const response = await server.inject(`/api/${version}/cats/2`)
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), { id: 2, name: 'Felix', born: 2021 })
  }
  const missing = await server.inject('/api/v2/cats/9')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { statusCode: 404, message: 'Cat 9 not found', error: 'Not Found' })
  assert.equal((await server.inject('/api/v1/cats/abc')).statusCode, 400)
})

test('the page is rendered from a template, without a version segment', async (t) => {
  const server = await app(t)
  const page = await server.inject('/api/cats/page')
  assert.equal(page.statusCode, 200)
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  assert.equal(page.body, '<!doctype html>\n<title>Cats</title>\n<h1>Cats</h1>\n<ul>\n  <li>Tom (2019)</li>\n  <li>Felix (2021)</li>\n</ul>\n')
  assert.deepEqual((await server.inject('/health')).json(), { ok: true })
})
