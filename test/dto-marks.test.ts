import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import { IsInt, IsString, Min, Validator } from 'class-validator'
import { Body, Controller, Module, Post, ValidationPipe } from '../plugin/index.js'
import { build } from './helpers/app.js'
import { paramTypes } from './helpers/dto.js'

// How a compiled DTO's verdict reaches the pipe: a mark the validation step leaves on the value.
// class-validator's runs are counted, to tell which values the pipe took on the schema's word.

let validations = 0
const validate = Validator.prototype.validate
Validator.prototype.validate = function (this: Validator, ...args: unknown[]) {
  validations++
  return (validate as (...a: unknown[]) => unknown).apply(this, args)
} as typeof validate

class CreateCat {
  @IsString() name!: string
  @IsInt() @Min(0) age!: number
}

@Controller('cats')
class CatsController {
  @Post()
  create (@Body() cat: CreateCat) {
    return { keys: Reflect.ownKeys(cat).map(String), symbols: Object.getOwnPropertySymbols(cat).length, same: isDeepStrictEqual(cat, { ...cat }) }
  }
}
paramTypes(CatsController, 'create', [CreateCat])

@Module({ controllers: [CatsController] })
class CatsModule {}

const valid = { name: 'Tom', age: 2 }
const invalid = { name: 1, age: -1 }
const invalidMessages = ['name must be a string', 'age must not be less than 0']

async function app (t: Parameters<typeof build>[0]) {
  // A parser that hands out one object for every request, refilled from each payload, and one
  // that freezes what it parses.
  const shared: Record<string, unknown> = {}
  const fastify = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ compile: true })] }, (fastify) => {
    fastify.addContentTypeParser('application/x-shared', { parseAs: 'string' }, (req, payload, done) => {
      for (const key of Object.keys(shared)) delete shared[key]
      done(null, Object.assign(shared, JSON.parse(payload as string)))
    })
    fastify.addContentTypeParser('application/x-frozen', { parseAs: 'string' }, (req, payload, done) => {
      done(null, Object.freeze(JSON.parse(payload as string)))
    })
  })
  return (type: string, payload: unknown) => fastify.inject({ method: 'POST', url: '/cats', headers: { 'content-type': type }, payload: JSON.stringify(payload) })
}

test('a body the compiled schema accepted skips class-validator, and the handler sees no trace of the mark', async (t) => {
  const send = await app(t)
  validations = 0
  const accepted = await send('application/json', { ...valid, extra: 1 })
  assert.equal(accepted.statusCode, 201)
  assert.deepEqual(accepted.json(), { keys: ['name', 'age', 'extra'], symbols: 0, same: true })
  assert.equal(validations, 0)
  const refused = await send('application/json', invalid)
  assert.deepEqual(refused.json().message, invalidMessages)
  assert.equal(validations, 1)
})

test('a body object met again is judged again: a verdict does not outlive a change', async (t) => {
  const send = await app(t)
  assert.equal((await send('application/x-shared', valid)).statusCode, 201)
  // The same object, now invalid: class-validator answers, not the verdict it had before.
  const refused = await send('application/x-shared', invalid)
  assert.equal(refused.statusCode, 400)
  assert.deepEqual(refused.json().message, invalidMessages)
  assert.equal((await send('application/x-shared', valid)).statusCode, 201)
})

test('a frozen body is never marked: class-validator judges it, with the same answers', async (t) => {
  const send = await app(t)
  validations = 0
  const accepted = await send('application/x-frozen', valid)
  assert.equal(accepted.statusCode, 201)
  assert.deepEqual(accepted.json(), { keys: ['name', 'age'], symbols: 0, same: true })
  assert.equal(validations, 1)
  const refused = await send('application/x-frozen', invalid)
  assert.deepEqual(refused.json().message, invalidMessages)
  assert.equal(validations, 2)
})
