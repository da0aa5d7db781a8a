import 'reflect-metadata'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { IsArray, IsBoolean, IsDate, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator'
import { Type, plainToInstance } from 'class-transformer'
import { Body, Controller, Get, Module, Param, Post, Query, ValidationPipe, decoratorPlugin, type ValidationPipeOptions } from '../../plugin/index.js'
import { compileDto } from '../../plugin/validation/dto-schema.js'
import { DtoSchemas } from '../../plugin/validation/dto-registry.js'
import { compileSettings, type CompileSettings } from '../../plugin/validation/dto-verdicts.js'
import { designType, paramTypes } from '../helpers/dto.js'

// class-transformer converts query and params values (always strings) before class-validator
// sees them: Number(''), Number(' 7 '), Boolean('false'), new Date('x') and arrays from repeated
// keys. The compiled check converts the same way, so the answer never changes.

class ListQuery {
  @Type(() => Number) @IsInt() @Min(1) @Max(100) limit!: number
  @IsOptional() @IsIn(['asc', 'desc']) order?: string
  @IsOptional() @Type(() => String) @IsString() @MinLength(2) q?: string
  @IsOptional() @Type(() => Boolean) @IsBoolean() all?: boolean
  @IsOptional() @Type(() => Date) @IsDate() since?: Date
  @IsOptional() @Type(() => Number) @IsInt({ each: true }) ids?: number[]
  @IsOptional() @Type(() => Number) @IsArray() @Min(0, { each: true }) scores?: number[]
  @IsOptional() @Type(() => Number) @IsNotEmpty() n?: number
}

class IdParams {
  @Type(() => Number) @IsInt() @Min(1) id!: number
}

class Payload {
  @Type(() => Number) @IsInt() count!: number
  @IsOptional() @Type(() => String) @IsString() label?: string
}

// Design types as tsc emits them: implicit conversion reads them.
class ImplicitQuery {
  @designType(Number) @IsInt() @Min(0) page!: number
  @designType(Boolean) @IsOptional() @IsBoolean() open?: boolean
  @designType(String) @IsOptional() @IsString() name?: string
  @designType(Date) @IsOptional() @IsDate() from?: Date
  @designType(Array) @IsOptional() @IsArray() tags?: string[]
  @designType(Object) @IsOptional() @IsIn(['a', 1]) pick?: string | number
  // No design type (an undecorated field's): left as it is.
  @IsOptional() @IsString() raw?: string
}

class ImplicitSet {
  @designType(Set) @IsOptional() @IsArray() tags?: Set<string>
}

@Controller('conv')
class ConversionsController {
  @Get()
  list (@Query() query: ListQuery) { return { dto: query instanceof ListQuery, query } }

  @Get('implicit')
  implicit (@Query() query: ImplicitQuery) { return { dto: query instanceof ImplicitQuery, query } }

  @Get('set')
  set (@Query() query: ImplicitSet) { return { query } }

  @Get(':id')
  one (@Param() params: IdParams) { return { dto: params instanceof IdParams, params } }

  @Post()
  create (@Body() payload: Payload) { return { dto: payload instanceof Payload, payload } }
}
paramTypes(ConversionsController, 'list', [ListQuery])
paramTypes(ConversionsController, 'implicit', [ImplicitQuery])
paramTypes(ConversionsController, 'set', [ImplicitSet])
paramTypes(ConversionsController, 'one', [IdParams])
paramTypes(ConversionsController, 'create', [Payload])

@Module({ controllers: [ConversionsController] })
class ConversionsModule {}

interface Built { app: FastifyInstance, schemas: Map<string, any>, lines: any[] }

async function build (options: ValidationPipeOptions): Promise<Built> {
  const lines: any[] = []
  const stream = new Writable({ write (chunk, encoding, done) { lines.push(JSON.parse(String(chunk))); done() } })
  const app = Fastify({ logger: { level: 'debug', stream } })
  const schemas = new Map<string, any>()
  app.addHook('onRoute', (route) => { schemas.set(`${String(route.method)} ${route.url}`, route.schema && JSON.parse(JSON.stringify(route.schema))) })
  await app.register(decoratorPlugin, { module: ConversionsModule, globalPipes: [new ValidationPipe(options)] })
  await app.ready()
  return { app, schemas, lines }
}

const queries = [
  'limit=1', 'limit=', 'limit=%207%20', 'limit=0x10', 'limit=0b11', 'limit=0o7', 'limit=1e3', 'limit=1e1', 'limit=abc', 'limit=1.5', 'limit=-0',
  'limit=Infinity', 'limit=%E2%80%83', 'limit=%EF%BC%91', 'limit=1&limit=2', 'limit', 'order=asc', 'limit=5&order=up',
  'limit=5&q=', 'limit=5&q=x', 'limit=5&q=xy', 'limit=5&q=ab&q=cd', 'limit=5&all=false', 'limit=5&all=', 'limit=5&all=0&all=',
  'limit=5&since=2024-01-01', 'limit=5&since=x', 'limit=5&since=', 'limit=5&since=%207%20', 'limit=5&since=1&since=2',
  'limit=5&ids=1', 'limit=5&ids=1&ids=2', 'limit=5&ids=1&ids=x', 'limit=5&ids=',
  'limit=5&scores=1', 'limit=5&scores=1&scores=2', 'limit=5&scores=-1&scores=2', 'limit=5&n=', 'limit=5&n=%20',
  'limit=5&extra=1', 'limit=5&__proto__=1', 'limit=5&constructor=1', 'limit[a]=1'
]

const optionSets: ValidationPipeOptions[] = [
  {},
  { transform: true },
  { whitelist: true },
  { whitelist: true, forbidNonWhitelisted: true, transform: true }
]

for (const options of optionSets) {
  test(`a query DTO with @Type() conversions compiles and answers as uncompiled: ValidationPipe(${JSON.stringify(options)})`, async (t) => {
    const compiled = await build({ ...options, compile: true })
    const plain = await build(options)
    t.after(() => Promise.all([compiled.app.close(), plain.app.close()]))
    assert.deepEqual(compiled.schemas.get('GET /conv').querystring.required, ['limit'])
    assert.deepEqual(compiled.schemas.get('GET /conv/:id'), {
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'], ...(options.forbidNonWhitelisted && { additionalProperties: false }) }
    })
    assert.deepEqual(compiled.lines.filter((line) => line.dto === 'ListQuery' || line.dto === 'IdParams' || line.dto === 'Payload'), [])
    const urls = [...queries.map((query) => `/conv?${query}`), '/conv/1', '/conv/0', '/conv/%207', '/conv/0x2', '/conv/abc', '/conv/1e1']
    for (const url of urls) {
      const [expected, actual] = await Promise.all([plain.app.inject(url), compiled.app.inject(url)])
      assert.equal(actual.statusCode, expected.statusCode, url)
      assert.deepEqual(actual.json(), expected.json(), url)
    }
    for (const payload of [{ count: '5' }, { count: 5, label: 7 }, { count: '' }, { count: 'x' }, { count: true }, { count: [1] }, { count: { a: 1 } }, { count: null }, {}]) {
      const send = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/conv', payload })
      const [expected, actual] = await Promise.all([send(plain.app), send(compiled.app)])
      assert.equal(actual.statusCode, expected.statusCode, JSON.stringify(payload))
      assert.deepEqual(actual.json(), expected.json(), JSON.stringify(payload))
    }
  })
}

test('the handler gets the converted DTO with transform, and the request\'s own strings without it', async (t) => {
  const withTransform = await build({ compile: true, transform: true })
  const without = await build({ compile: true })
  t.after(() => Promise.all([withTransform.app.close(), without.app.close()]))
  const url = '/conv?limit=%207%20&all=false&ids=1&ids=0x2&since=2024-01-01T00:00:00.000Z'
  assert.deepEqual((await withTransform.app.inject(url)).json(), {
    dto: true,
    query: { limit: 7, all: true, ids: [1, 2], since: '2024-01-01T00:00:00.000Z' }
  })
  assert.deepEqual((await without.app.inject(url)).json(), {
    dto: false,
    query: { limit: ' 7 ', all: 'false', ids: ['1', '0x2'], since: '2024-01-01T00:00:00.000Z' }
  })
  assert.deepEqual((await withTransform.app.inject('/conv/%207')).json(), { dto: true, params: { id: 7 } })
})

test('implicit conversion compiles by design type, and a pipe without it keeps its own verdicts', async (t) => {
  const implicit = await build({ compile: true, transform: true, transformOptions: { enableImplicitConversion: true } })
  const plainImplicit = await build({ transform: true, transformOptions: { enableImplicitConversion: true } })
  const explicit = await build({ compile: true, transform: true })
  const plainExplicit = await build({ transform: true })
  t.after(() => Promise.all([implicit.app.close(), plainImplicit.app.close(), explicit.app.close(), plainExplicit.app.close()]))
  assert.deepEqual(implicit.schemas.get('GET /conv/implicit').querystring.properties.page, { type: 'integer', minimum: 0 })
  assert.deepEqual(implicit.schemas.get('GET /conv/implicit').querystring.properties.from, { anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] })
  const urls = ['page=0', 'page=', 'page=%20', 'page=0x1F', 'page=1e2', 'page=-1', 'page=x', 'page=1&page=2', 'page=1&open=false', 'page=1&open=',
    'page=1&name=1&name=2', 'page=1&from=2024', 'page=1&from=nope', 'page=1&tags=a', 'page=1&tags=a&tags=b', 'page=1&pick=1', 'page=1&pick=a',
    'page=1&raw=1&raw=2', 'page[x]=1', 'page=1&tags[x]=1']
  for (const query of urls) {
    const url = `/conv/implicit?${query}`
    for (const [compiled, plain] of [[implicit, plainImplicit], [explicit, plainExplicit]]) {
      const [expected, actual] = await Promise.all([plain.app.inject(url), compiled.app.inject(url)])
      assert.equal(actual.statusCode, expected.statusCode, url)
      assert.deepEqual(actual.json(), expected.json(), url)
    }
  }
  assert.deepEqual((await implicit.app.inject('/conv/implicit?page=%202&open=false')).json(), { dto: true, query: { page: 2, open: true } })
  // Without implicit conversion, '2' is no integer.
  assert.equal((await explicit.app.inject('/conv/implicit?page=2')).statusCode, 400)
  // A design type implicit conversion builds a value into (a Set from an array) is not compiled.
  assert.equal(implicit.schemas.get('GET /conv/set'), undefined)
  assert.deepEqual(implicit.lines.filter((line) => line.dto === 'ImplicitSet').map((line) => [line.level, line.reason]), [
    [20, 'ImplicitSet.tags is declared as Set, which implicit conversion builds from the value']
  ])
  const set = '/conv/set?tags=a&tags=b'
  assert.deepEqual((await implicit.app.inject(set)).json(), (await plainImplicit.app.inject(set)).json())
})

const settings = (transformOptions?: Record<string, unknown>) => compileSettings({ forbidUnknownValues: false }, transformOptions) as Exclude<CompileSettings, { reason: string }>

test('the compiled check converts as class-transformer does, and never changes the request\'s value', () => {
  assert.deepEqual(compileDto(ListQuery, { forbidUnknownValues: false }).conversions, [
    { property: 'limit', to: 'number' },
    { property: 'q', to: 'string' },
    { property: 'all', to: 'boolean' },
    { property: 'since', to: 'date' },
    { property: 'ids', to: 'number' },
    { property: 'scores', to: 'number' },
    { property: 'n', to: 'number' }
  ])
  assert.deepEqual(compileDto(ImplicitQuery, { forbidUnknownValues: false }, true).conversions, [
    { property: 'page', to: 'number' },
    { property: 'open', to: 'boolean' },
    { property: 'name', to: 'string' },
    { property: 'from', to: 'date' },
    { property: 'tags', to: 'keep' },
    { property: 'pick', to: 'keep' }
  ])
  const variant = new DtoSchemas(Fastify().log, () => false).variant(ListQuery, settings())
  assert.ok(typeof variant !== 'string', String(variant))
  const values = ['', ' 7 ', '\t7\n', '0x10', '0b1', '0o7', '1e3', '1E1', '.5e1', '-0', '+3', 'abc', 'false', 'true', '0', 'x', '2024-01-01', '7',
    'Infinity', '1_000', '\u2003', '\uFF11', '\u00A0', ['1', '2'], ['x'], [], [['1']], null, { a: '1' }, Object.assign(Object.create(null), { a: '1' }), 5, true]
  let accepted = 0
  for (const property of ['limit', 'q', 'all', 'since', 'ids', 'scores', 'n']) {
    for (const value of values) {
      const query = { limit: '5', [property]: value }
      const frozen = Object.freeze({ ...query })
      // class-transformer cannot convert an object without a prototype: the check leaves it to it.
      let valid = false
      try { valid = validateSync(plainToInstance(ListQuery, query)).length === 0 } catch {}
      // An object, and a lone value where `each` documents an array, are left to class-validator
      // (never accepted); everything else is judged exactly.
      const leftOver = (value !== null && typeof value === 'object' && !Array.isArray(value)) || (property === 'ids' && value !== null && !Array.isArray(value))
      assert.equal(variant.check(frozen), leftOver ? false : valid, `${property}=${JSON.stringify(value)}`)
      assert.deepEqual(frozen, query)
      if (valid) accepted++
    }
  }
  assert.ok(accepted > 40, `accepted ${accepted}`)
  // The values of the contract, one by one.
  assert.equal(variant.check({ limit: '' }), false, 'Number(\'\') is 0, below @Min(1)')
  assert.equal(variant.check({ limit: ' 7 ' }), true)
  assert.equal(variant.check({ limit: '0x10' }), true)
  assert.equal(variant.check({ limit: '1e3' }), false, '1000 is above @Max(100)')
  assert.equal(variant.check({ limit: '1e1' }), true)
  assert.equal(variant.check({ limit: 'abc' }), false)
  assert.equal(variant.check({ limit: '1', all: 'false' }), true)
  assert.equal(variant.check({ limit: '1', since: 'x' }), false)
  assert.equal(variant.check({ limit: '1', ids: ['1', '2'] }), true)
})

test('a Date made by conversion is documented as a date-time string; @IsDate() is checked on the Date', () => {
  const variant = new DtoSchemas(Fastify().log, () => false).variant(ListQuery, settings())
  assert.ok(typeof variant !== 'string')
  assert.deepEqual(variant.schema.properties.since, { anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] })
  assert.deepEqual(compileDto(ListQuery, { forbidUnknownValues: false }).schema.properties.since, { anyOf: [{ type: 'null' }, { isDate: true }] })
  assert.equal(variant.check({ limit: '1', since: '2024-02-30' }), validateSync(plainToInstance(ListQuery, { limit: '1', since: '2024-02-30' })).length === 0)
  assert.equal(variant.check({ limit: '1', since: 0 }), true, 'new Date(0) is a valid Date')
})

test('@fastify/swagger lists a compiled query or params DTO as one parameter per property, with its type, constraints and required', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'Conversions', version: '1.0.0' } } })
  await app.register(decoratorPlugin, { module: ConversionsModule, globalPipes: [new ValidationPipe({ compile: true, transform: true })] })
  await app.ready()
  const doc = app.swagger() as any
  const parameters = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map(({ name, ...rest }: any) => [name, rest]))
  // OpenAPI 3.0 says `nullable` where the schema lists 'null' among the types (@IsOptional()).
  assert.deepEqual(parameters('/conv'), {
    limit: { schema: { type: 'integer', maximum: 100, minimum: 1 }, in: 'query', required: true },
    order: { schema: { enum: ['asc', 'desc', null] }, in: 'query', required: false },
    q: { schema: { type: 'string', minLength: 2, nullable: true }, in: 'query', required: false },
    all: { schema: { type: 'boolean', nullable: true }, in: 'query', required: false },
    since: { schema: { type: 'string', format: 'date-time', nullable: true }, in: 'query', required: false },
    ids: { schema: { type: 'array', items: { type: 'integer' }, nullable: true }, in: 'query', required: false },
    scores: { schema: { type: 'array', items: { type: 'number', minimum: 0 }, nullable: true }, in: 'query', required: false },
    n: { schema: { anyOf: [{ type: 'object', nullable: true, enum: [null] }, { not: { enum: ['', null] } }] }, in: 'query', required: false }
  })
  assert.deepEqual(parameters('/conv/{id}'), { id: { schema: { type: 'integer', minimum: 1 }, in: 'path', required: true } })
})
