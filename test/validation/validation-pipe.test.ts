import { test } from 'node:test'
import assert from 'node:assert/strict'
import { IsInt, IsOptional, IsString, Min, ValidateNested, ArrayMinSize } from 'class-validator'
import { Type } from 'class-transformer'
import { Module, Controller, Get, Post, Body, Query, Param, UsePipes, ValidationPipe, HttpException, BadRequestException } from '../../plugin/index.js'
import type { ArgumentMetadata, ValidationError, ValidationPipeOptions } from '../../plugin/index.js'
import { loadPeers } from '../../plugin/validation/validation-pipe.js'
import { build } from '../helpers/app.js'

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
  await assert.rejects(Promise.resolve(pipe.transform({ name: 1, age: 0, inner: { n: 'x' }, list: [{ n: 1 }, { n: 1.5 }] }, body)), (error) => {
    assert.deepEqual(messagesOf(error), {
      statusCode: 400,
      message: ['name must be a string', 'age must not be less than 1', 'inner.n must be an integer number', 'list.1.n must be an integer number'],
      error: 'Bad Request'
    })
    return true
  })
  // A missing body validates as {} so required fields report.
  await assert.rejects(Promise.resolve(pipe.transform(undefined, body)), (error) => {
    assert.deepEqual((messagesOf(error) as any).message, ['name must be a string', 'age must not be less than 1', 'age must be an integer number'])
    return true
  })
})

test('whitelist strips unknown properties; forbidNonWhitelisted rejects them', async () => {
  const value = { name: 'Tom', age: 3, extra: true }
  assert.deepEqual(plain(await new ValidationPipe({ whitelist: true }).transform(value, body)), { name: 'Tom', age: 3 })
  const instance = await new ValidationPipe({ whitelist: true, transform: true }).transform(value, body) as CreateCat & { extra?: unknown }
  assert.equal(instance.extra, undefined)
  await assert.rejects(Promise.resolve(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }).transform(value, body)), (error) => {
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
  await assert.rejects(Promise.resolve(new ValidationPipe({ validateCustomDecorators: true }).transform({}, { type: 'custom', metatype: CreateCat })), BadRequestException)
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
  await assert.rejects(Promise.resolve(new ValidationPipe({ errorHttpStatusCode: 422 }).transform({}, body)), (error) => {
    assert.equal((error as HttpException).getStatus(), 422)
    assert.equal((messagesOf(error) as any).error, 'Unprocessable Entity')
    return true
  })
  await assert.rejects(Promise.resolve(new ValidationPipe({ exceptionFactory: (errors) => new Error(errors.map((e) => e.property).join()) }).transform({ age: 2 }, body)), /^Error: name$/)
  await assert.rejects(Promise.resolve(new ValidationPipe({ disableErrorMessages: true }).transform({}, body)), (error) => {
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

// tsx emits no design types: they are declared by hand, as tsc would.
const paramTypes = (...types: Function[]) => Reflect.metadata('design:paramtypes', types)

// Every field optional: validating a stand-in for a non-object would find nothing wrong.
class PatchDto {
  @IsOptional() @IsString() name?: string
  @IsOptional() @IsInt() age?: number
}

const notObjects: Array<[string, unknown]> = [
  ['an array of objects', [{ name: 5, isAdmin: true }]],
  ['an empty array', []],
  ['a string', 'Tom'],
  ['an empty string', ''],
  ['a number', 5],
  ['zero', 0],
  ['true', true],
  ['false', false],
  ['null', null]
]
const places: ArgumentMetadata[] = [
  { type: 'body', metatype: PatchDto },
  { type: 'body', metatype: PatchDto, data: 'patch' },
  { type: 'query', metatype: PatchDto },
  { type: 'query', metatype: PatchDto, data: 'filter' },
  { type: 'param', metatype: PatchDto },
  { type: 'param', metatype: PatchDto, data: 'id' },
  { type: 'custom', metatype: PatchDto }
]
const flags = ['transform', 'whitelist', 'forbidNonWhitelisted', 'skipMissingProperties', 'skipNullProperties', 'forbidUnknownValues', 'stopAtFirstError', 'disableErrorMessages'] as const

test('a DTO parameter never receives a value that is not an object, under every combination of options', async () => {
  let checked = 0
  for (let mask = 0; mask < 1 << flags.length; mask++) {
    for (const status of [undefined, 422]) {
      const options: ValidationPipeOptions = { validateCustomDecorators: true, errorHttpStatusCode: status }
      flags.forEach((flag, i) => { if (mask & (1 << i)) options[flag] = true })
      const pipe = new ValidationPipe(options)
      for (const metadata of places) {
        for (const [label, value] of notObjects) {
          const what = `${label} as ${metadata.type} ${metadata.data ?? ''} with ${JSON.stringify(options)}`
          await assert.rejects(Promise.resolve(pipe.transform(structuredClone(value), metadata)), (error) => {
            assert.ok(error instanceof HttpException, what)
            assert.equal(error.getStatus(), status ?? 400, what)
            return true
          }, what)
          checked++
        }
      }
    }
  }
  assert.equal(checked, 256 * 2 * places.length * notObjects.length)
})

test('what a refused non-object reads: NestJS\'s `property 0 should not exist` for an array under forbidNonWhitelisted, else `<name> must be an object`, then the fields\' own errors', async () => {
  const strict = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })
  const messages = async (pipe: ValidationPipe, value: unknown, metadata: ArgumentMetadata) => {
    try {
      await pipe.transform(value, metadata)
    } catch (error) {
      return (messagesOf(error) as { message: unknown }).message
    }
    assert.fail('expected a refusal')
  }
  const body: ArgumentMetadata = { type: 'body', metatype: PatchDto }
  assert.deepEqual(await messages(strict, [{ name: 5, isAdmin: true }], body), ['property 0 should not exist'])
  assert.deepEqual(await messages(strict, Array.from({ length: 10_000 }, () => ({})), body), ['property 0 should not exist'], 'one message, however long the array')
  assert.deepEqual(await messages(strict, [], body), ['body must be an object'])
  assert.deepEqual(await messages(new ValidationPipe({ whitelist: true }), [{ name: 5 }], body), ['body must be an object'])
  assert.deepEqual(await messages(new ValidationPipe(), 'Tom', { type: 'query', metatype: PatchDto, data: 'filter' }), ['filter must be an object'])
  assert.deepEqual(await messages(new ValidationPipe(), null, { type: 'param', metatype: PatchDto }), ['param must be an object'])
  assert.deepEqual(await messages(new ValidationPipe({ validateCustomDecorators: true }), 5, { type: 'custom', metatype: PatchDto }), ['value must be an object'])
  // Required fields still say what they need.
  assert.deepEqual(await messages(new ValidationPipe(), [], { type: 'body', metatype: CreateCat }), ['body must be an object', 'name must be a string', 'age must not be less than 1', 'age must be an integer number'])
  // exceptionFactory gets the refusal as a ValidationError like the others.
  const seen: ValidationError[][] = []
  await assert.rejects(Promise.resolve(new ValidationPipe({ exceptionFactory: (errors) => { seen.push(errors); return new BadRequestException('custom') } }).transform(true, { type: 'body', metatype: PatchDto, data: 'patch' })), /custom/)
  assert.deepEqual(seen, [[{ property: 'patch', value: true, constraints: { isObject: 'patch must be an object' }, children: [] }]])
  // Nothing given is not a value: it validates as {} and the handler gets nothing, as in NestJS.
  assert.equal(await strict.transform(undefined, body), undefined)
  assert.deepEqual(plain(await strict.transform({ name: 'Tom' }, body)), { name: 'Tom' })
})

let patched = 0
@Controller('patch')
class PatchController {
  @Post() @paramTypes(PatchDto) body (@Body() patch: PatchDto) { patched++; return { patch } }
  @Post('named') @paramTypes(PatchDto) named (@Body('patch') patch: PatchDto) { patched++; return { patch } }
  @Get('query') @paramTypes(PatchDto) query (@Query('filter') filter: PatchDto) { patched++; return { filter } }
  @Get('whole-query') @paramTypes(PatchDto) wholeQuery (@Query() query: PatchDto) { patched++; return { query } }
  @Get('param/:id') @paramTypes(PatchDto) param (@Param('id') id: PatchDto) { patched++; return { id } }
}

@Module({ controllers: [PatchController] })
class PatchModule {}

test('over HTTP: arrays, strings, numbers, booleans and null for @Body, @Query and @Param DTOs are a 400, whatever the options', async (t) => {
  // method, url, body, the message; an array under forbidNonWhitelisted reads as NestJS's.
  const requests: Array<[string, string, string | undefined, string, boolean?]> = [
    ['POST', '/patch', '[{"name":5,"isAdmin":true}]', 'body', true],
    ['POST', '/patch', '"Tom"', 'body'],
    ['POST', '/patch', '5', 'body'],
    ['POST', '/patch', 'true', 'body'],
    ['POST', '/patch', 'null', 'body'],
    ['POST', '/patch/named', '{"patch":[{"isAdmin":true}]}', 'patch', true],
    ['POST', '/patch/named', '{"patch":"Tom"}', 'patch'],
    ['POST', '/patch/named', '{"patch":null}', 'patch'],
    ['GET', '/patch/query?filter=Tom', undefined, 'filter'],
    ['GET', '/patch/query?filter=a&filter=b', undefined, 'filter', true],
    ['GET', '/patch/param/Tom', undefined, 'id']
  ]
  for (const options of [{}, { transform: true }, { whitelist: true }, { whitelist: true, transform: true }, { whitelist: true, forbidNonWhitelisted: true }, { whitelist: true, forbidNonWhitelisted: true, transform: true }]) {
    const app = await build(t, PatchModule, { globalPipes: [new ValidationPipe(options)] })
    patched = 0
    for (const [method, url, payload, name, array] of requests) {
      const what = `${method} ${url} ${payload ?? ''} with ${JSON.stringify(options)}`
      const response = await app.inject({ method: method as 'GET', url, payload, headers: payload === undefined ? {} : { 'content-type': 'application/json' } })
      assert.equal(response.statusCode, 400, what)
      const message = array === true && 'forbidNonWhitelisted' in options ? 'property 0 should not exist' : `${name} must be an object`
      assert.deepEqual(response.json(), { statusCode: 400, message: [message], error: 'Bad Request' }, what)
    }
    assert.equal(patched, 0, 'no handler ran')
    const good = await app.inject({ method: 'POST', url: '/patch', payload: { name: 'Tom' } })
    assert.deepEqual([good.statusCode, good.json()], [201, { patch: { name: 'Tom' } }])
    assert.deepEqual((await app.inject('/patch/whole-query?name=Tom')).json(), { query: { name: 'Tom' } })
  }
})
