import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import { IsInt, IsString, Min, Validator } from 'class-validator'
import type { FastifyRequest } from 'fastify'
import { Body, Controller, Injectable, Module, Post, UseInterceptors, ValidationPipe, type CallHandler, type ExecutionContext, type NestInterceptor } from '../../plugin/index.js'
import { acceptedBy, recordVerdict, type Verdict } from '../../plugin/validation/dto-verdicts.js'
import { build } from '../helpers/app.js'
import { paramTypes } from '../helpers/dto.js'

// How a compiled DTO's verdict reaches the pipe: Fastify's validation step records it for the
// value it judged, and the pipe takes it when it is handed that very value. class-validator's
// runs are counted, to tell which values the pipe took on the schema's word.

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

// Holds a request in its interceptor, after Fastify's validation step and before the pipe, until
// the test lets it go: `x-hold` names the hold.
const holds = new Map<string, { entered: () => void, release: Promise<void> }>()
function hold (name: string): { entered: Promise<void>, release: () => void } {
  let entered!: () => void
  let release!: () => void
  const arrived = new Promise<void>((resolve) => { entered = resolve })
  holds.set(name, { entered: () => entered(), release: new Promise<void>((resolve) => { release = resolve }) })
  return { entered: arrived, release }
}

@Injectable()
class HoldInterceptor implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler): Promise<unknown> {
    const held = holds.get(ctx.switchToHttp().getRequest<FastifyRequest>().headers['x-hold'] as string)
    if (held !== undefined) {
      held.entered()
      await held.release
    }
    return await next.handle()
  }
}

@Controller('cats')
@UseInterceptors(HoldInterceptor)
class CatsController {
  @Post()
  create (@Body() cat: CreateCat) {
    return { keys: Reflect.ownKeys(cat).map(String), symbols: Object.getOwnPropertySymbols(cat).length, same: isDeepStrictEqual(cat, { ...cat }) }
  }
}
paramTypes(CatsController, 'create', [CreateCat])

@Module({ controllers: [CatsController], providers: [HoldInterceptor] })
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
  return (type: string, payload: unknown, headers: Record<string, string> = {}) => fastify.inject({ method: 'POST', url: '/cats', headers: { 'content-type': type, ...headers }, payload: JSON.stringify(payload) })
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

test('a frozen body is judged by the compiled schema like any other', async (t) => {
  const send = await app(t)
  validations = 0
  const accepted = await send('application/x-frozen', valid)
  assert.equal(accepted.statusCode, 201)
  assert.deepEqual(accepted.json(), { keys: ['name', 'age'], symbols: 0, same: true })
  assert.equal(validations, 0)
  const refused = await send('application/x-frozen', invalid)
  assert.deepEqual(refused.json().message, invalidMessages)
  assert.equal(validations, 1)
})

test('another request validated between a request\'s validation and its pipe: class-validator answers, with the same answers', async (t) => {
  const send = await app(t)
  validations = 0
  // An invalid body held after its validation while a valid one is validated and held too.
  const first = hold('first')
  const second = hold('second')
  const refused = send('application/json', invalid, { 'x-hold': 'first' })
  await first.entered
  const accepted = send('application/json', valid, { 'x-hold': 'second' })
  await second.entered
  first.release()
  const refusedResponse = await refused
  assert.equal(refusedResponse.statusCode, 400)
  assert.deepEqual(refusedResponse.json().message, invalidMessages)
  assert.equal(validations, 1)
  second.release()
  assert.equal((await accepted).statusCode, 201)
  assert.equal(validations, 1, 'the valid body was still the last judged: the pipe took the verdict')
  // The other way round: the valid body's verdict is gone once another body was judged.
  const third = hold('third')
  const late = send('application/json', valid, { 'x-hold': 'third' })
  await third.entered
  assert.equal((await send('application/json', invalid)).statusCode, 400)
  third.release()
  assert.equal((await late).statusCode, 201)
  assert.equal(validations, 3)
})

const verdict = { cls: CreateCat, fingerprint: 'f', plans: new Map(), build: () => undefined } satisfies Verdict

test('a verdict is taken once, for the very value and part it was given for', () => {
  const body = { name: 'Tom', age: 2 }
  recordVerdict('body', body, verdict)
  assert.equal(acceptedBy('body', { ...body }), undefined)
  assert.equal(acceptedBy('query', body), undefined)
  assert.equal(acceptedBy('custom', body), undefined)
  assert.equal(acceptedBy('body', body), verdict)
  assert.equal(acceptedBy('body', body), undefined)
})

test('the same object judged as another part loses the verdict it had', () => {
  const value = { name: 'Tom', age: 2 }
  recordVerdict('body', value, verdict)
  recordVerdict('query', value, undefined)
  assert.equal(acceptedBy('body', value), undefined)
  recordVerdict('body', value, verdict)
  recordVerdict('param', {}, verdict)
  assert.equal(acceptedBy('body', value), verdict)
})
