import { test } from 'node:test'
import { STATUS_CODES } from 'node:http'
import assert from 'node:assert/strict'
import {
  Module, Controller, Get, Post, Param, Query, Body, Headers, Req, Injectable, Inject, UsePipes, createParamDecorator,
  ParseIntPipe, ParseFloatPipe, ParseBoolPipe, ParseUUIDPipe, ParseEnumPipe, ParseArrayPipe, DefaultValuePipe,
  HttpException, UnprocessableEntityException
} from '../../plugin/index.js'
import type { ArgumentMetadata, PipeTransform } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const seen: Array<{ value: unknown, metadata: ArgumentMetadata }> = []
// Objects are copied as plain ones: Fastify's query object has a prototype of its own.
const recorder: PipeTransform = {
  transform (value, metadata) {
    seen.push({ value: typeof value === 'object' && value !== null ? { ...value } : value, metadata })
    return value
  }
}

const Tenant = createParamDecorator((data: string, ctx) => `${data}:${ctx.switchToHttp().getRequest<any>().headers['x-tenant'] as string}`)

@Controller('meta')
@UsePipes(recorder)
class MetaController {
  @Post(':id')
  all (
    @Param('id') id: string,
    @Query() query: unknown,
    @Query('q') q: string,
    @Body() body: unknown,
    @Body('name') name: string,
    @Tenant('t') tenant: string,
    @Headers('x-tenant') header: string,
    @Req() req: unknown
  ) { return { id, q, name, tenant, header } }
}

@Module({ controllers: [MetaController] })
class MetaModule {}

test('pipes get { type, metatype, data } for param, query, body and custom parameters; headers and req are not piped', async (t) => {
  const app = await build(t, MetaModule)
  seen.length = 0
  const response = await app.inject({ method: 'POST', url: '/meta/5?q=x', headers: { 'x-tenant': 'acme' }, payload: { name: 'n' } })
  assert.deepEqual(response.json(), { id: '5', q: 'x', name: 'n', tenant: 't:acme', header: 'acme' })
  // Without emitted decorator metadata (tsx), metatype is undefined; the compiled tests cover it.
  assert.deepEqual(seen, [
    { value: '5', metadata: { type: 'param', metatype: undefined, data: 'id' } },
    { value: { q: 'x' }, metadata: { type: 'query', metatype: undefined, data: undefined } },
    { value: 'x', metadata: { type: 'query', metatype: undefined, data: 'q' } },
    { value: { name: 'n' }, metadata: { type: 'body', metatype: undefined, data: undefined } },
    { value: 'n', metadata: { type: 'body', metatype: undefined, data: 'name' } },
    { value: 't:acme', metadata: { type: 'custom', metatype: undefined, data: 't' } }
  ])
})

const double: PipeTransform = { transform: (value: unknown) => Number(value) * 2 }

@Injectable()
class Offset { readonly by = 1 }

@Injectable()
class AddOffsetPipe implements PipeTransform {
  constructor (@Inject(Offset) private readonly offset: Offset) {}
  transform (value: number) { return value + this.offset.by }
}

@Controller('per-param')
class PerParamController {
  @Get(':a/:b')
  sum (@Param('a', ParseIntPipe, double, AddOffsetPipe) a: number, @Param('b') b: string) { return { a, b } }

  @Get()
  fromQuery (@Query(new DefaultValuePipe('7'), new ParseIntPipe()) all: unknown) { return { all } }
}

@Module({ controllers: [PerParamController], providers: [Offset] })
class PerParamModule {}

test('per-parameter pipes run in order, classes through DI, instances as given; other parameters are untouched', async (t) => {
  const app = await build(t, PerParamModule)
  assert.deepEqual((await app.inject('/per-param/20/x')).json(), { a: 41, b: 'x' })
  const bad = await app.inject('/per-param/2x/x')
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', error: 'Bad Request' })
  // A whole-query pipe list with a data-less decorator: the first entry is a pipe, not a name.
  assert.equal((await app.inject('/per-param')).statusCode, 400)
})

enum Color { Red = 'red', Blue = 'blue' }
enum Level { Low = 1, High = 2 }

@Controller('builtin')
class BuiltinController {
  @Get('int') int (@Query('v', ParseIntPipe) v: number) { return { v } }
  @Get('float') float (@Query('v', ParseFloatPipe) v: number) { return { v } }
  @Get('bool') bool (@Query('v', ParseBoolPipe) v: boolean) { return { v } }
  @Get('uuid') uuid (@Query('v', ParseUUIDPipe) v: string) { return { v } }
  @Get('uuid4') uuid4 (@Query('v', new ParseUUIDPipe({ version: '4' })) v: string) { return { v } }
  @Get('enum') color (@Query('v', new ParseEnumPipe(Color)) v: Color) { return { v } }
  @Get('level') level (@Query('v', new ParseEnumPipe(Level)) v: Level) { return { v } }
  @Get('array') array (@Query('v', ParseArrayPipe) v: string[]) { return { v } }
  @Get('numbers') numbers (@Query('v', new ParseArrayPipe({ items: Number, separator: ';' })) v: number[]) { return { v } }
  @Get('flags') flags (@Query('v', new ParseArrayPipe({ items: Boolean })) v: boolean[]) { return { v } }
  @Get('default') default (@Query('v', new DefaultValuePipe(10), ParseIntPipe) v: number) { return { v } }
  @Get('optional') optional (@Query('v', new ParseIntPipe({ optional: true })) v?: number) { return { v: v ?? 'none' } }
  @Get('status') status (@Query('v', new ParseIntPipe({ errorHttpStatusCode: 422 })) v: number) { return { v } }
  @Get('factory') factory (@Query('v', new ParseBoolPipe({ exceptionFactory: (message) => new UnprocessableEntityException(`v: ${message}`) })) v: boolean) { return { v } }
}

@Module({ controllers: [BuiltinController] })
class BuiltinModule {}

const uuid4 = '9b2f1c4e-3a5d-4e6f-8a7b-1c2d3e4f5a6b'
const uuid1 = '9b2f1c4e-3a5d-1e6f-8a7b-1c2d3e4f5a6b'

function badRequest (message: string) { return { statusCode: 400, message, error: 'Bad Request' } }

test('built-in pipes convert good input', async (t) => {
  const app = await build(t, BuiltinModule)
  const cases: Array<[string, unknown]> = [
    ['/builtin/int?v=-42', -42],
    ['/builtin/float?v=1.5', 1.5],
    ['/builtin/float?v=-2e3', -2000],
    ['/builtin/bool?v=true', true],
    ['/builtin/bool?v=false', false],
    ['/builtin/uuid?v=' + uuid1, uuid1],
    ['/builtin/uuid4?v=' + uuid4, uuid4],
    ['/builtin/enum?v=blue', 'blue'],
    ['/builtin/level?v=2', 2],
    ['/builtin/array?v=a,b,c', ['a', 'b', 'c']],
    ['/builtin/array?v=a&v=b', ['a', 'b']],
    ['/builtin/numbers?v=1;2.5;-3', [1, 2.5, -3]],
    ['/builtin/flags?v=true,false', [true, false]],
    ['/builtin/default', 10],
    ['/builtin/default?v=3', 3],
    ['/builtin/optional', 'none'],
    ['/builtin/optional?v=8', 8]
  ]
  for (const [url, v] of cases) {
    const response = await app.inject(url)
    assert.equal(response.statusCode, 200, url)
    assert.deepEqual(response.json(), { v }, url)
  }
})

test('built-in pipes reject bad input with NestJS\'s 400 messages', async (t) => {
  const app = await build(t, BuiltinModule)
  const cases: Array<[string, string]> = [
    ['/builtin/int?v=4.2', 'Validation failed (numeric string is expected)'],
    ['/builtin/int?v=abc', 'Validation failed (numeric string is expected)'],
    ['/builtin/int', 'Validation failed (numeric string is expected)'],
    ['/builtin/float?v=1.5x', 'Validation failed (numeric string is expected)'],
    ['/builtin/float?v=', 'Validation failed (numeric string is expected)'],
    ['/builtin/bool?v=yes', 'Validation failed (boolean string is expected)'],
    ['/builtin/bool?v=1', 'Validation failed (boolean string is expected)'],
    ['/builtin/uuid?v=not-a-uuid', 'Validation failed (uuid is expected)'],
    ['/builtin/uuid', 'The value passed as UUID is not a string'],
    ['/builtin/uuid4?v=' + uuid1, 'Validation failed (uuid v 4 is expected)'],
    ['/builtin/enum?v=green', 'Validation failed (enum string is expected)'],
    ['/builtin/level?v=3', 'Validation failed (enum string is expected)'],
    ['/builtin/level?v=Low', 'Validation failed (enum string is expected)'],
    ['/builtin/array', 'Validation failed (parsable array expected)'],
    ['/builtin/array?v=', 'Validation failed (parsable array expected)'],
    ['/builtin/numbers?v=1;x', '[1] item must be a number'],
    ['/builtin/flags?v=true,maybe', '[1] item must be a boolean value'],
    ['/builtin/default?v=x', 'Validation failed (numeric string is expected)'],
    ['/builtin/optional?v=x', 'Validation failed (numeric string is expected)']
  ]
  for (const [url, message] of cases) {
    const response = await app.inject(url)
    assert.equal(response.statusCode, 400, url)
    assert.deepEqual(response.json(), badRequest(message), url)
  }
})

test('numbers that overflow a double are not numbers: 400 with the pipe\'s message, never Infinity', async (t) => {
  const app = await build(t, BuiltinModule)
  const huge = '9'.repeat(400)
  const cases: Array<[string, string]> = [
    [`/builtin/int?v=${huge}`, 'Validation failed (numeric string is expected)'],
    [`/builtin/int?v=-${huge}`, 'Validation failed (numeric string is expected)'],
    [`/builtin/float?v=${huge}`, 'Validation failed (numeric string is expected)'],
    [`/builtin/float?v=-${huge}.5`, 'Validation failed (numeric string is expected)'],
    ['/builtin/float?v=1e309', 'Validation failed (numeric string is expected)'],
    [`/builtin/numbers?v=1;${huge}`, '[1] item must be a number'],
    ['/builtin/numbers?v=1e309', '[0] item must be a number']
  ]
  for (const [url, message] of cases) {
    const response = await app.inject(url)
    assert.equal(response.statusCode, 400, url.slice(0, 40))
    assert.deepEqual(response.json(), badRequest(message), url.slice(0, 40))
  }
  // The largest integers a double holds still parse.
  assert.equal((await app.inject(`/builtin/int?v=${'9'.repeat(308)}`)).json().v, 1e308)
  assert.throws(() => new ParseIntPipe().transform(huge), (error: unknown) => error instanceof HttpException && error.getStatus() === 400)
  assert.throws(() => new ParseFloatPipe().transform(Infinity), (error: unknown) => error instanceof HttpException && error.getStatus() === 400)
})

test('pipe errors are built-in exceptions: the message is in getResponse(), whatever the status', () => {
  const cases: Array<[() => unknown, number, string]> = [
    [() => new ParseIntPipe().transform('x'), 400, 'Validation failed (numeric string is expected)'],
    [() => new ParseIntPipe({ errorHttpStatusCode: 422 }).transform('x'), 422, 'Validation failed (numeric string is expected)'],
    [() => new ParseBoolPipe({ errorHttpStatusCode: 499 }).transform('x'), 499, 'Validation failed (boolean string is expected)'],
    [() => new ParseUUIDPipe().transform('x'), 400, 'Validation failed (uuid is expected)']
  ]
  for (const [run, status, message] of cases) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof HttpException)
      assert.equal(error.getStatus(), status)
      assert.equal(error.message, message)
      assert.deepEqual(error.getResponse(), { statusCode: status, message, error: status === 499 ? 'Error' : STATUS_CODES[status] })
      return true
    })
  }
})

test('built-in pipes take errorHttpStatusCode and exceptionFactory', async (t) => {
  const app = await build(t, BuiltinModule)
  const status = await app.inject('/builtin/status?v=x')
  assert.equal(status.statusCode, 422)
  assert.deepEqual(status.json(), { statusCode: 422, message: 'Validation failed (numeric string is expected)', error: 'Unprocessable Entity' })
  const factory = await app.inject('/builtin/factory?v=x')
  assert.equal(factory.statusCode, 422)
  assert.deepEqual(factory.json(), { statusCode: 422, message: 'v: Validation failed (boolean string is expected)', error: 'Unprocessable Entity' })
})

test('built-in pipes work on their own, as plain classes', () => {
  assert.equal(new ParseIntPipe().transform('7'), 7)
  assert.equal(new ParseIntPipe().transform(7), 7)
  assert.equal(new ParseFloatPipe().transform(' 1.25'), 1.25)
  assert.equal(new DefaultValuePipe(5).transform(NaN), 5)
  assert.equal(new DefaultValuePipe(5).transform(null), 5)
  assert.equal(new DefaultValuePipe(5).transform(0), 0)
  assert.deepEqual(new ParseArrayPipe({ items: String }).transform(['a', 1]), ['a', '1'])
  assert.equal(new ParseBoolPipe({ optional: true }).transform(null), null)
  assert.throws(() => new ParseIntPipe().transform('1e3'), (error: unknown) => error instanceof HttpException && error.getStatus() === 400)
  assert.throws(() => new ParseEnumPipe(undefined as any), /ParseEnumPipe needs an enum object/)
  assert.throws(() => new ParseArrayPipe({ items: Date as any }), /"items" must be Number, String or Boolean/)
})
