import 'reflect-metadata'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inspect } from 'node:util'
import fc from 'fast-check'
import { IsArray, IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator'
import { Type, plainToInstance } from 'class-transformer'
import { compileDto } from '../../plugin/validation/dto-schema.js'
import { instanceBuilder } from '../../plugin/validation/dto-instances.js'
import { designType } from '../helpers/dto.js'
import { queryValue } from '../helpers/query-strings.js'

// A compiled DTO's instance is built from its plan instead of by class-transformer, for the
// values the plan covers; each one must come out as plainToInstance builds it.

let constructed = 0

class Child {
  @IsString() name!: string
}

class Search {
  @Type(() => Number) @IsInt() limit!: number
  @IsOptional() @IsIn(['asc', 'desc']) order?: string = 'asc'
  @IsOptional() @Type(() => String) @IsString() q?: string
  @IsOptional() @Type(() => Boolean) @IsBoolean() all?: boolean
  @IsOptional() @Type(() => Date) @IsDate() since?: Date
  @IsOptional() @Type(() => Number) @IsInt({ each: true }) ids?: number[]
  @IsOptional() @IsArray() tags?: string[]
  @IsOptional() @ValidateNested() @Type(() => Child) child?: Child
  constructor () { constructed++ }
}

// Implicit conversion reads design types.
class Implicit {
  @designType(Number) @IsInt() page!: number
  @designType(Boolean) @IsOptional() @IsBoolean() open?: boolean
  @designType(Array) @IsOptional() @IsArray() tags?: string[]
  @designType(Child) @IsOptional() @IsString() kept?: string
}

const options = { forbidUnknownValues: false }
const builderOf = (cls: Function, implicit = false) => instanceBuilder(cls, compileDto(cls, options, implicit).fields)

const scalar = fc.oneof(queryValue, fc.integer().map((n) => n as unknown), fc.boolean(), fc.constant(null), fc.double())
const field = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }))

for (const [name, cls, keys, implicit] of [
  ['@Type() conversions', Search, ['limit', 'order', 'q', 'all', 'since', 'ids', 'tags'], false],
  ['implicit conversion', Implicit, ['page', 'open', 'tags', 'kept'], true]
] as const) {
  test(`${name}: the built instance is what plainToInstance builds, for generated values`, () => {
    const build = builderOf(cls, implicit)
    const transformOptions = implicit ? { enableImplicitConversion: true } : undefined
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...keys), field), (value) => {
      const built = build(value)
      assert.notEqual(built, undefined)
      const expected = plainToInstance(cls as any, value, transformOptions)
      // inspect() shows the class, key order, NaN, -0 and invalid Dates (which deepEqual finds unequal to themselves).
      assert.equal(inspect(built, { depth: 3 }), inspect(expected, { depth: 3 }))
      assert.equal(Object.getPrototypeOf(built), Object.getPrototypeOf(expected))
    }), { numRuns: 300 })
  })
}

test('a value the plan does not cover is left to class-transformer before any constructor runs', () => {
  const build = builderOf(Search)
  const before = constructed
  const sparse = ['1', '2']
  delete sparse[0]
  for (const value of [
    { limit: '1', extra: 'x' },
    { limit: '1', child: { name: 'a' } },
    { limit: { n: 1 } },
    { ids: [['1']] },
    { ids: [{}] },
    { ids: sparse },
    { limit: () => 1 },
    { limit: 1n }
  ]) assert.equal(build(value), undefined, JSON.stringify(value, (key, item) => typeof item === 'bigint' ? String(item) : item))
  assert.equal(constructed, before)
})

test('keys class-transformer never assigns are skipped as it skips them', () => {
  const build = builderOf(Search)
  const value = JSON.parse('{"limit":"3","constructor":"x","__proto__":"y"}')
  assert.deepEqual(build(value), plainToInstance(Search, value))
})

test('an array under a @Type() whose design type builds something else than an array is left to class-transformer', () => {
  class Odd extends Array {}
  class Listed {
    @IsOptional() @Type(() => Number) @IsInt({ each: true }) ids?: number[]
  }
  Reflect.defineMetadata('design:type', Odd, Listed.prototype, 'ids')
  // @Type() reads the design type when it is applied: apply it again now that there is one.
  Type(() => Number)(Listed.prototype, 'ids')
  const build = builderOf(Listed)
  assert.equal(build({ ids: ['1'] }), undefined)
  assert.deepEqual(build({ ids: '1' }), plainToInstance(Listed, { ids: '1' }))
})
