import { test } from 'node:test'
import assert from 'node:assert/strict'
import { IsInt, IsOptional, IsString, Min, ValidateNested, ArrayMinSize } from 'class-validator'
import { Type } from 'class-transformer'
import { Module, Controller, Post, Body, UsePipes, ValidationPipe, HttpException, BadRequestException } from '../plugin/index.js'
import { loadPeers } from '../plugin/validation-pipe.js'
import { build } from './helpers/app.js'

class Inner {
  @IsInt() n!: number
}

class CreateCat {
  @IsString() name!: string
  @IsInt() @Min(1) age!: number
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner
  @IsOptional() @ValidateNested({ each: true }) @ArrayMinSize(1) @Type(() => Inner) list?: Inner[]
}

// As sent: declared but unset class fields are left out.
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const body = { type: 'body', metatype: CreateCat, data: undefined } as const

function messagesOf (error: unknown): unknown {
  assert.ok(error instanceof HttpException)
  return error.getBody()
}

test('a valid DTO passes: the original value without transform, a DTO instance with it', async () => {
  const value = { name: 'Tom', age: 3 }
  assert.equal(await new ValidationPipe().transform(value, body), value)
  const instance = await new ValidationPipe({ transform: true }).transform(value, body)
  assert.ok(instance instanceof CreateCat)
  assert.deepEqual(plain(instance), value)
})

test('errors are a 400 whose message lists every constraint, nested ones with their path', async () => {
  const pipe = new ValidationPipe()
  await assert.rejects(pipe.transform({ name: 1, age: 0, inner: { n: 'x' }, list: [{ n: 1 }, { n: 1.5 }] }, body), (error) => {
    assert.deepEqual(messagesOf(error), {
      statusCode: 400,
      message: ['name must be a string', 'age must not be less than 1', 'inner.n must be an integer number', 'list.1.n must be an integer number'],
      error: 'Bad Request'
    })
    return true
  })
  // A missing body validates as {} so required fields report.
  await assert.rejects(pipe.transform(undefined, body), (error) => {
    assert.deepEqual((messagesOf(error) as any).message, ['name must be a string', 'age must not be less than 1', 'age must be an integer number'])
    return true
  })
})

test('whitelist strips unknown properties; forbidNonWhitelisted rejects them', async () => {
  const value = { name: 'Tom', age: 3, extra: true }
  assert.deepEqual(plain(await new ValidationPipe({ whitelist: true }).transform(value, body)), { name: 'Tom', age: 3 })
  const instance = await new ValidationPipe({ whitelist: true, transform: true }).transform(value, body) as CreateCat & { extra?: unknown }
  assert.equal(instance.extra, undefined)
  await assert.rejects(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }).transform(value, body), (error) => {
    assert.deepEqual((messagesOf(error) as any).message, ['property extra should not exist'])
    return true
  })
})

test('primitives, missing metatypes and custom parameters are not validated', async () => {
  const pipe = new ValidationPipe()
  for (const metatype of [String, Number, Boolean, Object, Array, Date, Buffer, undefined]) {
    assert.equal(await pipe.transform('x', { type: 'body', metatype: metatype as any }), 'x')
  }
  assert.equal(await pipe.transform('x', { type: 'custom', metatype: CreateCat }), 'x')
  await assert.rejects(new ValidationPipe({ validateCustomDecorators: true }).transform({}, { type: 'custom', metatype: CreateCat }), BadRequestException)
})

test('transform converts primitives by design type, for named param and query values only', async () => {
  const pipe = new ValidationPipe({ transform: true })
  assert.equal(await pipe.transform('12', { type: 'param', metatype: Number, data: 'id' }), 12)
  assert.equal(await pipe.transform('true', { type: 'query', metatype: Boolean, data: 'b' }), true)
  assert.equal(await pipe.transform('0', { type: 'query', metatype: Boolean, data: 'b' }), false)
  assert.equal(await pipe.transform(undefined, { type: 'query', metatype: Boolean, data: 'b' }), undefined)
  assert.equal(await pipe.transform(5, { type: 'query', metatype: String, data: 's' }), '5')
  assert.equal(await pipe.transform('12', { type: 'body', metatype: Number, data: 'id' }), '12')
  assert.deepEqual(await pipe.transform({ id: '1' }, { type: 'query', metatype: Number }), { id: '1' })
  assert.equal(await new ValidationPipe().transform('12', { type: 'param', metatype: Number, data: 'id' }), '12')
})

test('errorHttpStatusCode, exceptionFactory and disableErrorMessages shape the error', async () => {
  await assert.rejects(new ValidationPipe({ errorHttpStatusCode: 422 }).transform({}, body), (error) => {
    assert.equal((error as HttpException).getStatus(), 422)
    assert.equal((messagesOf(error) as any).error, 'Unprocessable Entity')
    return true
  })
  await assert.rejects(new ValidationPipe({ exceptionFactory: (errors) => new Error(errors.map((e) => e.property).join()) }).transform({ age: 2 }, body), /^Error: name$/)
  await assert.rejects(new ValidationPipe({ disableErrorMessages: true }).transform({}, body), (error) => {
    assert.deepEqual(messagesOf(error), { statusCode: 400, message: 'Bad Request', error: 'Bad Request' })
    return true
  })
})

test('a missing class-validator or class-transformer fails with FDP_ERR_MISSING_PEER naming both', () => {
  for (const names of [['class-validator-missing', 'class-transformer'], ['class-validator', 'class-transformer-missing']] as const) {
    assert.throws(() => loadPeers(names), (error: any) => {
      assert.equal(error.code, 'FDP_ERR_MISSING_PEER')
      assert.match(error.message, /ValidationPipe needs the optional peer dependencies class-validator and class-transformer/)
      assert.ok(error.message.includes(`${names.find((name) => name.endsWith('-missing'))!} could not be loaded`), error.message)
      assert.match(error.message, /npm install class-validator class-transformer/)
      return true
    })
  }
  assert.equal(typeof loadPeers().validate, 'function')
})

// Without emitted metadata the route gives no metatype; an explicit per-parameter pipe can still validate.
class DtoPipe extends ValidationPipe {
  constructor () { super({ transform: true }) }
  override transform (value: unknown) { return super.transform(value, body) }
}

@Controller('cats')
@UsePipes(new ValidationPipe({ whitelist: true }))
class CatsController {
  @Post() create (@Body(DtoPipe) cat: CreateCat) { return { isDto: cat instanceof CreateCat, cat } }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

test('through a route: 400 with the message array, or the DTO instance', async (t) => {
  const app = await build(t, CatsModule)
  const bad = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom' } })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, message: ['age must not be less than 1', 'age must be an integer number'], error: 'Bad Request' })
  const good = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 2 } })
  assert.equal(good.statusCode, 201)
  assert.deepEqual(good.json(), { isDto: true, cat: { name: 'Tom', age: 2 } })
})
