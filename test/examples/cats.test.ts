// Compiled lane: the example injects by type, so it needs tsc's decorator metadata.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { createTestApp } from '../../plugin/testing.js'
import { CatsModule } from '../../examples/cats/cats.module.js'

const admin = { 'x-roles': 'admin' }
const tom = { id: 1, name: 'Tom', age: 3, breed: 'Tabby' }

test('lists, finds and filters cats', async (t) => {
  const app = await createTestApp(CatsModule, {}, t)
  const all = await app.inject('/cats')
  assert.equal(all.statusCode, 200)
  assert.deepEqual(all.json(), [tom])
  assert.deepEqual((await app.inject('/cats?breed=Tabby')).json(), [tom])
  assert.deepEqual((await app.inject('/cats?breed=Siamese')).json(), [])
  assert.deepEqual((await app.inject('/cats/1')).json(), tom)
})

test('an unknown cat is a 404 from NotFoundException, a bad id a 400 from ParseIntPipe', async (t) => {
  const app = await createTestApp(CatsModule, {}, t)
  const missing = await app.inject('/cats/9')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { statusCode: 404, message: 'Cat 9 not found', error: 'Not Found' })
  const bad = await app.inject('/cats/abc')
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', error: 'Bad Request' })
})

test('creating needs the admin role (RolesGuard + @Roles), then a valid DTO (ValidationPipe)', async (t) => {
  const app = await createTestApp(CatsModule, {}, t)
  const body = { name: 'Kitty', age: 2, breed: 'Siamese' }

  const anonymous = await app.inject({ method: 'POST', url: '/cats', payload: body })
  assert.equal(anonymous.statusCode, 403)
  assert.deepEqual(anonymous.json(), { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
  const wrongRole = await app.inject({ method: 'POST', url: '/cats', payload: { bad: true }, headers: { 'x-roles': 'viewer' } })
  assert.equal(wrongRole.statusCode, 403)

  const created = await app.inject({ method: 'POST', url: '/cats', payload: body, headers: { 'x-roles': 'viewer, admin' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { id: 2, ...body })
  assert.deepEqual((await app.inject('/cats')).json(), [tom, { id: 2, ...body }])

  const invalid = await app.inject({ method: 'POST', url: '/cats', payload: { name: '', age: -1 }, headers: admin })
  assert.equal(invalid.statusCode, 400)
  assert.equal(invalid.json().error, 'Bad Request')
  assert.deepEqual([...invalid.json().message].sort(), [
    'age must not be less than 0',
    'breed must be a string',
    'name must be longer than or equal to 1 characters'
  ])

  const extra = await app.inject({ method: 'POST', url: '/cats', payload: { ...body, owner: 'me' }, headers: admin })
  assert.equal(extra.statusCode, 400)
  assert.deepEqual(extra.json().message, ['property owner should not exist'])
})

test('CreateCatDto is compiled into the body schema of POST /cats (the answers above stay class-validator\'s)', async (t) => {
  const schemas = new Map<string, unknown>()
  await createTestApp(CatsModule, { setup: (app) => app.addHook('onRoute', (route) => { schemas.set(`${String(route.method)} ${route.url}`, route.schema) }) }, t)
  assert.deepEqual((schemas.get('POST /cats') as { body: unknown }).body, { $ref: 'CreateCatDto#' })
})

test('deleting answers 204 and the cat is gone', async (t) => {
  const app = await createTestApp(CatsModule, {}, t)
  assert.equal((await app.inject({ method: 'DELETE', url: '/cats/1' })).statusCode, 403)
  const removed = await app.inject({ method: 'DELETE', url: '/cats/1', headers: admin })
  assert.equal(removed.statusCode, 204)
  assert.equal(removed.body, '')
  assert.equal((await app.inject('/cats/1')).statusCode, 404)
  assert.equal((await app.inject({ method: 'DELETE', url: '/cats/1', headers: admin })).statusCode, 404)
})

test('the schema route: ajv checks the params, the response schema drops other fields', async (t) => {
  const app = await createTestApp(CatsModule, {}, t)
  const card = await app.inject('/cats/1/card')
  assert.equal(card.statusCode, 200)
  assert.equal(card.body, '{"id":1,"name":"Tom"}')

  const invalid = await app.inject('/cats/abc/card')
  assert.equal(invalid.statusCode, 400)
  assert.deepEqual(invalid.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'params/id must be integer' })
  assert.equal((await app.inject('/cats/0/card')).json().message, 'params/id must be >= 1')
  assert.equal((await app.inject('/cats/5/card')).statusCode, 404)
})

test('the logging interceptor logs each handled request with the handler name and request id', async (t) => {
  const lines: any[] = []
  const stream = new Writable({ write (chunk, encoding, done) { lines.push(JSON.parse(String(chunk))); done() } })
  const app = await createTestApp(CatsModule, { fastify: { logger: { stream } } }, t)
  await app.inject('/cats/1')
  const handled = lines.filter((line) => line.msg === 'handled')
  assert.equal(handled.length, 1)
  assert.equal(handled[0].handler, 'CatsController.findOne')
  assert.equal(typeof handled[0].ms, 'number')
  assert.equal(handled[0].reqId, lines.find((line) => line.msg === 'incoming request').reqId)
})

test('main.js serves the example on PORT and HOST and prints its URL', async (t) => {
  const main = fileURLToPath(new URL('../../examples/cats/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => { if (child.exitCode === null) child.kill('SIGTERM') })
  let output = ''
  child.stdout.setEncoding('utf8')
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`main.js exited with ${code} before printing its URL: ${output}`)))
  })
  const cats = await fetch(`${url}/cats`)
  assert.equal(cats.status, 200)
  assert.deepEqual(await cats.json(), [tom])
  assert.deepEqual(await (await fetch(`${url}/health`)).json(), { ok: true })
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  assert.equal(code, 0)
})

test('main.js refuses a PORT that is not a port number', async () => {
  const main = fileURLToPath(new URL('../../examples/cats/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: 'http' }, stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { errors += chunk })
  const [code] = await once(child, 'exit')
  assert.equal(code, 1)
  assert.match(errors, /PORT must be a port number from 0 to 65535, given "http"/)
})
