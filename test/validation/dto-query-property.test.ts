import 'reflect-metadata'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inspect } from 'node:util'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { validateSync, IsArray, IsBoolean, IsDate, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsPositive, IsString, Length, Max, Min } from 'class-validator'
import { Type, plainToInstance } from 'class-transformer'
import { Controller, Get, Module, Param, Query, ValidationPipe, decoratorPlugin, type ValidationPipeOptions } from '../../plugin/index.js'
import { DtoSchemas } from '../../plugin/validation/dto-registry.js'
import type { CompileSettings } from '../../plugin/validation/dto-verdicts.js'
import { kDtoCompile } from '../../plugin/util/symbols.js'
import { designType, paramTypes } from '../helpers/dto.js'
import { assertAnswersAlike, queryString, queryValue } from '../helpers/query-strings.js'

// For each conversion, on generated query strings and path parameters: a route whose
// ValidationPipe compiles the DTO answers exactly as the same route without compiling (status,
// 400 messages in order, and the value the handler gets, NaN and invalid Dates included).

class NumberQuery {
  @Type(() => Number) @IsInt() @Min(-5) @Max(1000) int!: number
  @IsOptional() @Type(() => Number) @IsNumber() @IsPositive() num?: number
  @IsOptional() @Type(() => Number) @IsArray() @IsInt({ each: true }) ints?: number[]
  @IsOptional() @Type(() => Number) @Min(0, { each: true }) each?: number[]
  @IsOptional() @Type(() => Number) @IsNotEmpty() any?: number
}

class StringQuery {
  @Type(() => String) @IsString() @Length(1, 3) str!: string
  @IsOptional() @Type(() => String) @IsIn(['1', 'a']) pick?: string
}

class BooleanQuery {
  @Type(() => Boolean) @IsBoolean() flag!: boolean
  @IsOptional() @Type(() => Boolean) @IsIn([true]) on?: boolean
}

class DateQuery {
  @Type(() => Date) @IsDate() since!: Date
  @IsOptional() @Type(() => Date) @IsDate({ each: true }) @IsArray() days?: Date[]
}

// Implicit conversion reads the design types tsc emits.
class ImplicitQuery {
  @designType(Number) @IsInt() @Min(0) page!: number
  @designType(Boolean) @IsOptional() @IsBoolean() open?: boolean
  @designType(String) @IsOptional() @IsString() @Length(0, 2) name?: string
  @designType(Date) @IsOptional() @IsDate() from?: Date
  @designType(Array) @IsOptional() @IsArray() tags?: string[]
}

class IdParams {
  @Type(() => Number) @IsInt() @IsPositive() id!: number
  @Type(() => Date) @IsDate() day!: Date
}

// What the handler got, with what JSON would hide (NaN, invalid Dates, classes).
const seen = (value: unknown) => ({ value: inspect(value, { depth: 4 }) })

@Controller('q')
class QueryController {
  @Get('number') number (@Query() query: NumberQuery) { return seen(query) }
  @Get('string') string (@Query() query: StringQuery) { return seen(query) }
  @Get('boolean') boolean (@Query() query: BooleanQuery) { return seen(query) }
  @Get('date') date (@Query() query: DateQuery) { return seen(query) }
  @Get('implicit') implicit (@Query() query: ImplicitQuery) { return seen(query) }
  @Get('params/:id/:day') params (@Param() params: IdParams) { return seen(params) }
}
paramTypes(QueryController, 'number', [NumberQuery])
paramTypes(QueryController, 'string', [StringQuery])
paramTypes(QueryController, 'boolean', [BooleanQuery])
paramTypes(QueryController, 'date', [DateQuery])
paramTypes(QueryController, 'implicit', [ImplicitQuery])
paramTypes(QueryController, 'params', [IdParams])

@Module({ controllers: [QueryController] })
class QueryModule {}

async function app (options: ValidationPipeOptions, schemas: Map<string, unknown>): Promise<FastifyInstance> {
  const fastify = Fastify()
  fastify.addHook('onRoute', (route) => { if (route.method === 'GET') schemas.set(route.url, route.schema) })
  await fastify.register(decoratorPlugin, { module: QueryModule, globalPipes: [new ValidationPipe(options)] })
  await fastify.ready()
  return fastify
}

const small = fc.integer({ min: -6, max: 1001 }).map(String)
const routes: Array<{ conversion: string, path: string, urls: fc.Arbitrary<string>, implicit?: boolean }> = [
  { conversion: '@Type(() => Number)', path: '/q/number', urls: queryString(['int', 'num', 'ints', 'each', 'any'], small.map((n) => `int=${n}`)).map((query) => `/q/number?${query}`) },
  { conversion: '@Type(() => String)', path: '/q/string', urls: queryString(['str', 'pick'], fc.constantFrom('str=a', 'str=abc', 'str=1')).map((query) => `/q/string?${query}`) },
  { conversion: '@Type(() => Boolean)', path: '/q/boolean', urls: queryString(['flag', 'on'], fc.constantFrom('flag=', 'flag=false')).map((query) => `/q/boolean?${query}`) },
  { conversion: '@Type(() => Date)', path: '/q/date', urls: queryString(['since', 'days'], fc.constantFrom('since=2024-01-01', 'since=0')).map((query) => `/q/date?${query}`) },
  { conversion: 'enableImplicitConversion', path: '/q/implicit', implicit: true, urls: queryString(['page', 'open', 'name', 'from', 'tags'], small.map((n) => `page=${n}`)).map((query) => `/q/implicit?${query}`) },
  {
    conversion: '@Type() on path parameters',
    path: '/q/params/:id/:day',
    urls: fc.tuple(fc.oneof(fc.integer({ min: 1, max: 99 }).map(String), queryValue), fc.oneof(fc.constantFrom('2024-01-01', '0', ' 7 '), queryValue)).filter(([id, day]) => id !== '' && day !== '').map(([id, day]) => `/q/params/${encodeURIComponent(id)}/${encodeURIComponent(day)}`)
  }
]

const optionSets: ValidationPipeOptions[] = [
  { transform: true },
  {},
  { whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: true }
]

for (const { conversion, path, urls, implicit } of routes) {
  for (const base of optionSets) {
    const options: ValidationPipeOptions = implicit ? { ...base, transformOptions: { enableImplicitConversion: true } } : base
    test(`${conversion}: compiled and uncompiled ValidationPipe(${JSON.stringify(options)}) answer alike on generated requests`, async (t) => {
      const schemas = new Map<string, any>()
      const plain = await app(options, new Map())
      const compiled = await app({ ...options, compile: true }, schemas)
      t.after(() => Promise.all([plain.close(), compiled.close()]))
      // The route really is compiled.
      const schema = schemas.get(path)
      assert.ok(schema?.querystring !== undefined || schema?.params !== undefined, `${path} is not compiled`)
      await assertAnswersAlike(plain, compiled, urls)
    })
  }
}

/** The query object Fastify makes of a query string: a repeated key is an array. */
function parse (url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null)
  for (const [key, value] of new URLSearchParams(url.slice(url.indexOf('?') + 1))) {
    const current = query[key]
    query[key] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value]
  }
  return query
}

test('on generated query objects the compiled check gives class-validator\'s verdict on the converted DTO', () => {
  const checks: Array<[Function, string, boolean]> = [[NumberQuery, '/q/number', false], [StringQuery, '/q/string', false], [BooleanQuery, '/q/boolean', false], [DateQuery, '/q/date', false], [ImplicitQuery, '/q/implicit', true]]
  for (const [dto, path, implicit] of checks) {
    const transformOptions = implicit ? { enableImplicitConversion: true } : undefined
    const settings = new ValidationPipe({ compile: true, transformOptions })[kDtoCompile] as CompileSettings
    const variant = new DtoSchemas(Fastify().log, () => false).variant(dto, settings)
    assert.ok(typeof variant !== 'string', String(variant))
    const { urls } = routes.find((route) => route.path === path)!
    let accepted = 0
    fc.assert(fc.property(urls, (url) => {
      const query = parse(url)
      const valid = validateSync(plainToInstance(dto as any, query, transformOptions) as object, { forbidUnknownValues: false }).length === 0
      // What the check accepts, class-validator accepts. Two kinds of value are left to
      // class-validator (the check says no, the pipe then asks it): `each` without @IsArray()
      // documents an array, so a lone value; and a number converted to ±Infinity, which @Min()
      // may accept while the check's numbers are finite.
      const lone = dto === NumberQuery && query.each !== undefined && !Array.isArray(query.each)
      const infinite = (dto === NumberQuery || dto === ImplicitQuery) && Object.values(query).flat().some((value) => Math.abs(Number(value)) === Infinity)
      const checked = variant.check(query)
      if (checked) assert.ok(valid, `accepted, but class-validator refuses: ${url}`)
      else if (!lone && !infinite) assert.ok(!valid, `refused, but class-validator accepts: ${url}`)
      if (valid && !lone && !infinite) accepted++
    }), { numRuns: 300 })
    assert.ok(accepted > 20, `${dto.name}: ${accepted} accepted`)
  }
})

test('a number converted to Infinity is left to class-validator, which @Min() lets through: compiled and uncompiled answer alike', async (t) => {
  const plain = await app({ transform: true }, new Map())
  const compiled = await app({ transform: true, compile: true }, new Map())
  t.after(() => Promise.all([plain.close(), compiled.close()]))
  for (const url of ['/q/number?int=0&each=%2BInfinity&each', '/q/number?int=0&each=1e400&each=2', '/q/number?int=0&each=-Infinity&each=1']) {
    const [expected, actual] = await Promise.all([plain.inject(url), compiled.inject(url)])
    assert.equal(actual.statusCode, expected.statusCode, url)
    assert.deepEqual(actual.json(), expected.json(), url)
  }
  assert.equal((await compiled.inject('/q/number?int=0&each=Infinity&each=1')).statusCode, 200)
  assert.equal((await compiled.inject('/q/number?int=0&each=-Infinity&each=1')).statusCode, 400)
})
