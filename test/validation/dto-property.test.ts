import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  Allow, ArrayMaxSize, IsArray, IsBoolean, IsDateString, IsDefined, IsEmail, IsEnum, IsIn, IsInt, IsNotEmpty, IsNumber,
  IsOptional, IsPositive, IsString, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength, ValidateNested, validateSync
} from 'class-validator'
import { Type, plainToInstance } from 'class-transformer'
import { Body, Controller, Module, Post, ValidationPipe, decoratorPlugin, type ValidationPipeOptions } from '../../plugin/index.js'
import { DtoSchemas } from '../../plugin/validation/dto-registry.js'
import type { CompileSettings } from '../../plugin/validation/dto-verdicts.js'
import { kDtoCompile } from '../../plugin/util/symbols.js'
import { paramTypes } from '../helpers/dto.js'

// Compiling never changes an answer: on generated bodies, a route whose ValidationPipe compiles
// the DTO answers exactly as the same route without compiling (status, 400 messages in order,
// what the handler receives), and the compiled schema never accepts what class-validator rejects.

enum Kind { A = 'a', B = 'b' }
enum Level { Low = 1, High = 2 }

class Address {
  @IsString() @Length(1, 5) city!: string
  @IsOptional() @IsInt() @Min(1) zip?: number
}

class Everything {
  @IsString() @MinLength(2) @MaxLength(4) name!: string
  @IsInt() @Min(-2) @Max(5) count!: number
  @IsOptional() @IsNumber() ratio?: number
  @IsOptional() @IsBoolean() flag?: boolean
  @IsOptional() @IsIn(['x', 'y', 3]) pick?: string | number
  @IsOptional() @IsEnum(Kind) kind?: Kind
  @IsOptional() @IsEnum(Level) level?: Level
  @IsOptional() @Matches(/^a+b?$/) ab?: string
  @IsOptional() @IsEmail() email?: string
  @IsOptional() @IsUUID() id?: string
  @IsOptional() @IsUUID('4') id4?: string
  @IsOptional() @IsDateString() when?: string
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMaxSize(3) tags?: string[]
  @IsOptional() @ValidateNested() @Type(() => Address) home?: Address
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) others?: Address[]
  @IsNotEmpty() note!: unknown
  @IsDefined() must!: unknown
  @Length(2, 3) code!: string
  @IsOptional() @IsPositive() pos?: number
  @Allow() free?: unknown
}

// Values near each property's edges, then anything JSON can carry.
const selector = fc.constantFrom('\uFE0F', '\uFE0E')
const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 6, unit: 'grapheme' }),
  fc.tuple(fc.string({ maxLength: 3 }), selector, fc.string({ maxLength: 2 })).map((parts) => parts.join('')),
  fc.constantFrom('', 'a', 'ab', 'abc', 'abcd', 'abcde', 'aab', 'b')
)
const number = fc.oneof(fc.integer({ min: -4, max: 7 }), fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, -0, 0.5, 1e300))
const uuid = fc.oneof(fc.uuid(), fc.uuid({ version: 4 }), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid'))
const anything = fc.jsonValue({ maxDepth: 2 })
const address = fc.oneof(
  fc.record({ city: fc.oneof(text, anything), zip: fc.oneof(number, anything) }, { requiredKeys: [] }),
  fc.record({ city: text, extra: anything }, { requiredKeys: [] }),
  anything
)
const values: Record<string, fc.Arbitrary<unknown>> = {
  name: text,
  count: number,
  ratio: number,
  flag: fc.boolean(),
  pick: fc.constantFrom('x', 'y', 3, '3', 'z'),
  kind: fc.constantFrom('a', 'b', 'A', 'c'),
  level: fc.constantFrom(1, 2, 3, 'Low', '1'),
  ab: fc.constantFrom('a', 'aab', 'ab', 'b', 'abb', ''),
  email: fc.oneof(fc.emailAddress(), text),
  id: uuid,
  id4: uuid,
  when: fc.oneof(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString()), fc.constantFrom('2024-02-30', '2024-01-01', 'yesterday')),
  tags: fc.array(fc.oneof(text, number), { maxLength: 4 }),
  home: address,
  others: fc.oneof(fc.array(address, { maxLength: 3 }), address),
  note: fc.oneof(text, number, fc.constant(null)),
  must: fc.oneof(anything, fc.constant(null)),
  code: text,
  pos: number,
  free: anything
}
// Bodies every validator accepts, so the fast path is exercised as much as the fallback.
const validBody = fc.record({
  name: fc.constantFrom('ab', 'abc', 'abcd', 'a\uFE0Fb'),
  count: fc.integer({ min: -2, max: 5 }),
  note: fc.constantFrom('n', 1),
  must: fc.constantFrom(0, 'x', false),
  code: fc.constantFrom('ab', 'abc'),
  home: fc.record({ city: fc.constantFrom('Rome', 'a'), zip: fc.integer({ min: 1, max: 9 }) }, { requiredKeys: ['city'] }),
  tags: fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 })
}, { requiredKeys: ['name', 'count', 'note', 'must', 'code'] })

const extraKeys = ['extra', 'toString', 'constructor', '0']
const property = (key: string): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 4, arbitrary: Object.hasOwn(values, key) ? values[key] : anything },
  { weight: 1, arbitrary: anything },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) }
)
const keys = Object.keys(values)
const overrides = (from: string[], maxLength: number): fc.Arbitrary<Record<string, unknown>> =>
  fc.uniqueArray(fc.constantFrom(...from), { maxLength }).chain((chosen) => fc.record(Object.fromEntries(chosen.map((key) => [key, property(key)]))))
const body: fc.Arbitrary<unknown> = fc.oneof(
  // A valid body with a few properties changed or added: one wrong value at a time.
  { weight: 8, arbitrary: fc.tuple(validBody, overrides([...keys, ...extraKeys], 3)).map(([valid, changed]) => ({ ...valid, ...changed })) },
  { weight: 3, arbitrary: overrides(keys, keys.length) },
  { weight: 2, arbitrary: validBody },
  { weight: 1, arbitrary: anything }
)

@Controller('things')
class ThingsController {
  @Post()
  create (@Body() thing: Everything) {
    return {
      dto: thing instanceof Everything,
      homeDto: thing?.home === undefined || thing.home instanceof Address,
      thing: thing ?? null
    }
  }
}
paramTypes(ThingsController, 'create', [Everything])

@Module({ controllers: [ThingsController] })
class ThingsModule {}

async function app (options: ValidationPipeOptions, schemas: unknown[] = []): Promise<FastifyInstance> {
  const fastify = Fastify()
  fastify.addHook('onRoute', (route) => { schemas.push(route.schema) })
  await fastify.register(decoratorPlugin, { module: ThingsModule, globalPipes: [new ValidationPipe(options)] })
  await fastify.ready()
  return fastify
}

const optionSets: ValidationPipeOptions[] = [
  {},
  { transform: true },
  { whitelist: true },
  { whitelist: true, forbidNonWhitelisted: true },
  { whitelist: true, transform: true, stopAtFirstError: true },
  { skipMissingProperties: true, transform: true }
]

for (const options of optionSets) {
  test(`compiled and uncompiled ValidationPipe(${JSON.stringify(options)}) answer alike on generated bodies`, async (t) => {
    const schemas: unknown[] = []
    const plain = await app(options)
    const compiled = await app({ ...options, compile: true }, schemas)
    t.after(() => Promise.all([plain.close(), compiled.close()]))
    // The compiled route's schema really is in Fastify's route options.
    assert.deepEqual(JSON.parse(JSON.stringify(schemas)), [{ body: { $ref: 'Everything#' } }])
    const send = (fastify: FastifyInstance, payload: unknown) => fastify.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
    let rejected = 0
    await fc.assert(fc.asyncProperty(body, async (payload) => {
      const [expected, actual] = await Promise.all([send(plain, payload), send(compiled, payload)])
      assert.equal(actual.statusCode, expected.statusCode, `status for ${JSON.stringify(payload)}`)
      assert.deepEqual(actual.json(), expected.json(), `body for ${JSON.stringify(payload)}`)
      if (expected.statusCode === 400) rejected++
    }), { numRuns: 250 })
    // Both verdicts were seen, so neither side can pass by answering one way.
    assert.ok(rejected > 0 && rejected < 250 * 2, `rejected ${rejected}`)
  })
}

test('the compiled schema never accepts a body class-validator rejects, and accepts the plainly valid ones', async () => {
  for (const options of optionSets) {
    const settings = new ValidationPipe({ ...options, compile: true })[kDtoCompile] as CompileSettings & { options: Record<string, unknown> }
    const pipeOptions = settings.options
    const variant = new DtoSchemas(Fastify().log, () => false).variant(Everything, settings)
    assert.ok(typeof variant !== 'string', String(variant))
    let accepted = 0
    fc.assert(fc.property(body, (payload) => {
      if (!variant.check(payload)) return
      accepted++
      const errors = validateSync(plainToInstance(Everything, payload as object), pipeOptions)
      assert.deepEqual(errors.map((error) => error.property), [], `accepted ${JSON.stringify(payload)}`)
    }), { numRuns: 1000 })
    assert.ok(accepted > 100, `only ${accepted} bodies accepted`)
    fc.assert(fc.property(validBody, (payload) => {
      assert.equal(variant.check(payload), true, JSON.stringify(payload))
    }), { numRuns: 200 })
  }
})
