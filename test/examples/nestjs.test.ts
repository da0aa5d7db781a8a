import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp } from '../../examples/nestjs/app.js'
import { NotesService } from '../../examples/nestjs/notes.module.js'

const key = { 'x-api-key': 'secret' }

async function ready (t: { after (fn: () => unknown): void }) {
  const app = await buildApp()
  t.after(() => app.close())
  await app.ready()
  return app
}

test('the NestJS module serves its routes beside the app\'s own, its guard, interceptor and pipes at work', async (t) => {
  const app = await ready(t)
  assert.deepEqual((await app.inject('/health')).json(), { ok: true })
  assert.equal((await app.inject({ method: 'POST', url: '/api/notes', payload: { text: 'milk' } })).statusCode, 403)
  const created = await app.inject({ method: 'POST', url: '/api/notes', payload: { text: 'milk' }, headers: key })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { id: 1, text: 'milk' })
  assert.match(String(created.headers['x-response-time']), /^\d+\.\dms$/)
  assert.deepEqual((await app.inject('/api/notes')).json(), [{ id: 1, text: 'milk' }])
  assert.deepEqual((await app.inject('/api/notes/1')).json(), { id: 1, text: 'milk' })
  assert.deepEqual(app.container.get(NotesService).all(), [{ id: 1, text: 'milk' }])
})

test('NestJS\'s exceptions reach the module\'s NestJS filter, the pipes\' included', async (t) => {
  const app = await ready(t)
  const missing = await app.inject('/api/notes/9')
  assert.equal(missing.statusCode, 404)
  assert.match(String(missing.headers['content-type']), /^application\/problem\+json/)
  assert.deepEqual(missing.json(), { status: 404, detail: 'Note 9 not found' })
  assert.deepEqual((await app.inject('/api/notes/x')).json(), { status: 400, detail: 'Validation failed (numeric string is expected)' })
  const invalid = await app.inject({ method: 'POST', url: '/api/notes', payload: { text: '' }, headers: key })
  assert.deepEqual(invalid.json(), { status: 400, detail: 'Bad Request Exception' })
  // The guard's refusal is the plugin's ForbiddenException: NestJS's @Catch(HttpException) takes it too.
  assert.deepEqual((await app.inject({ method: 'POST', url: '/api/notes', payload: { text: 'x' } })).json(), { status: 403, detail: 'Forbidden resource' })
})
