// Runs on tsc output: the example injects its services by type.
import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { buildApp } from '../../examples/webhooks/app.js'

const secret = 'test-secret'
const sign = (payload: string, key = secret) => `sha256=${createHmac('sha256', key).update(payload).digest('hex')}`

async function app (t: TestContext) {
  const instance = await buildApp({ secret })
  t.after(() => instance.close())
  await instance.ready()
  return instance
}

const deliver = (payload: string, signature?: string) => ({
  method: 'POST' as const,
  url: '/api/webhooks/payments',
  headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-signature': signature }) },
  payload
})

test('a delivery signed over its exact bytes is accepted and recorded', async (t) => {
  const server = await app(t)
  // Spacing and key order that re-serializing the parsed body would not reproduce.
  const payload = '{ "type": "payment.succeeded",  "amount": 4200 }'
  const res = await server.inject(deliver(payload, sign(payload)))
  assert.equal(res.statusCode, 202)
  assert.deepEqual(res.json(), { received: 1 })
  assert.deepEqual((await server.inject('/api/webhooks/payments')).json(), [{ type: 'payment.succeeded', amount: 4200 }])
})

test('a missing, wrong or re-serialized signature is a 401 and nothing is recorded', async (t) => {
  const server = await app(t)
  const payload = '{ "type": "payment.failed" }'
  for (const signature of [undefined, sign(payload, 'other-secret'), sign(JSON.stringify(JSON.parse(payload))), 'sha256=short']) {
    const res = await server.inject(deliver(payload, signature))
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { statusCode: 401, message: 'Invalid signature', error: 'Unauthorized' })
  }
  assert.deepEqual((await server.inject('/api/webhooks/payments')).json(), [])
})

test('malformed JSON is Fastify\'s 400, and plain routes keep parsing JSON as before', async (t) => {
  const server = await app(t)
  const bad = await server.inject(deliver('{"type":', sign('{"type":')))
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().code, 'FST_ERR_CTP_INVALID_JSON_BODY')
  const echo = await server.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })
  assert.deepEqual(echo.json(), { a: 1 })
})
