import 'reflect-metadata'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import {
  Allow, ArrayMaxSize, ArrayMinSize, ArrayNotEmpty, IsArray, IsBoolean, IsDateString, IsDefined, IsEmail, IsEnum, IsIn,
  IsDate, IsInt, IsISO8601, IsNegative, IsNotEmpty, IsNumber, IsObject, IsOptional, IsPositive, IsString, IsUUID, Length, Matches,
  Max, MaxLength, Min, MinLength, Validate, ValidateIf, ValidateNested, ValidatePromise, ValidatorConstraint,
  type ValidatorConstraintInterface
} from 'class-validator'
import { Exclude, Expose, Transform, Type } from 'class-transformer'
import { compileDto, merge, NotCompilable } from '../../plugin/validation/dto-schema.js'
import { DtoSchemas } from '../../plugin/validation/dto-registry.js'
import { compileSettings, type VerdictOptions } from '../../plugin/validation/dto-verdicts.js'

const defaults: VerdictOptions = { forbidUnknownValues: false }
const schemaOf = (cls: Function, options: Partial<VerdictOptions> = {}) => compileDto(cls, { ...defaults, ...options }).schema

enum Color { Red = 'red', Blue = 'blue' }
enum Size { S = 1, M = 2 }

class Tag {
  @IsString() label!: string
}

class Product {
  @IsString() @Length(2, 10) name!: string
  @IsInt() @Min(0) @Max(100) stock!: number
  @IsNumber() price!: number
  @IsBoolean() active!: boolean
  @MinLength(1) @MaxLength(3) code!: string
  @IsIn(['a', 'b', 1]) kind!: string
  @IsEnum(Color) color!: Color
  @IsEnum(Size) size!: Size
  @Matches(/^[a-z]+$/) slug!: string
  @Matches('^x') prefixed!: string
  @IsEmail() email!: string
  @IsUUID() id!: string
  @IsUUID('4') id4!: string
  @IsUUID('nil') nil!: string
  @IsDateString() date!: string
  @IsISO8601() iso!: string
  @IsNotEmpty() note!: unknown
  @IsDefined() present!: unknown
  @IsPositive() positive!: number
  @IsNegative() negative!: number
  @IsObject() meta!: object
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(5) @IsString({ each: true }) tags!: string[]
  @ArrayNotEmpty() list!: unknown[]
  @ValidateNested() @Type(() => Tag) main!: Tag
  @ValidateNested({ each: true }) @Type(() => Tag) more!: Tag[]
  @Allow() free?: unknown
}

test('each supported decorator becomes the JSON Schema keyword that accepts what it accepts', () => {
  const tag = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] }
  assert.deepEqual(schemaOf(Product), {
    type: 'object',
    properties: {
      // Decorators apply bottom-up: class-validator lists them in that order too.
      name: { type: 'string', minLength: 2, maxLength: 10 },
      stock: { type: 'integer', maximum: 100, minimum: 0 },
      price: { type: 'number' },
      active: { type: 'boolean' },
      code: { type: 'string', maxLength: 3, minLength: 1 },
      kind: { enum: ['a', 'b', 1] },
      color: { enum: ['red', 'blue'] },
      // Numeric enums: their values, not the names TypeScript maps them back to.
      size: { enum: [1, 2] },
      slug: { type: 'string', pattern: '^[a-z]+$' },
      prefixed: { type: 'string', pattern: '^x' },
      email: { type: 'string', format: 'email' },
      id: { type: 'string', format: 'uuid' },
      id4: { type: 'string', format: 'uuid-v4' },
      nil: { type: 'string', format: 'uuid-nil' },
      date: { type: 'string', format: 'date-time' },
      iso: { type: 'string', format: 'date-time' },
      note: { not: { enum: ['', null] } },
      present: { not: { type: 'null' } },
      positive: { type: 'number', exclusiveMinimum: 0 },
      negative: { type: 'number', exclusiveMaximum: 0 },
      meta: { type: 'object' },
      tags: { type: 'array', maxItems: 5, minItems: 1, items: { type: 'string' } },
      list: { type: 'array', minItems: 1 },
      main: tag,
      more: { type: 'array', items: tag },
      free: {}
    },
    // Everything class-validator rejects when missing; @Allow() and nested-only properties may be left out.
    required: ['name', 'stock', 'price', 'active', 'code', 'kind', 'color', 'size', 'slug', 'prefixed', 'email', 'id', 'id4', 'nil', 'date', 'iso', 'note', 'present', 'positive', 'negative', 'meta', 'tags', 'list']
  })
})

class Optionals {
  @IsOptional() @IsString() text?: string
  @IsOptional() @IsIn(['a']) pick?: string
  @IsOptional() @IsNotEmpty() filled?: unknown
  @IsOptional() @ValidateNested() @Type(() => Tag) tag?: Tag
  @IsOptional() @Allow() any?: unknown
}

test('@IsOptional() properties are not required and accept null, as class-validator skips both', () => {
  assert.deepEqual(schemaOf(Optionals), {
    type: 'object',
    properties: {
      text: { type: ['string', 'null'] },
      pick: { enum: ['a', null] },
      filled: { anyOf: [{ type: 'null' }, { not: { enum: ['', null] } }] },
      tag: { type: ['object', 'null'], properties: { label: { type: 'string' } }, required: ['label'] },
      any: {}
    }
  })
})

class NotEmpty {
  @IsString() @IsNotEmpty() name!: string
  @IsInt() @IsNotEmpty() count!: number
  @IsOptional() @IsNotEmpty() @IsString() nick?: string
}

test('@IsNotEmpty() on a typed property says it with the type: a non-empty string, or nothing more', () => {
  assert.deepEqual(schemaOf(NotEmpty).properties, {
    name: { type: 'string', minLength: 1 },
    count: { type: 'integer' },
    nick: { type: ['string', 'null'], minLength: 1 }
  })
})

class WithDefaults {
  @IsInt() page: number = 1
  @IsInt() broken: number = 1.5
  @IsString() name!: string
}

test('a property the constructor sets to a valid value may be left out; an invalid default stays required', () => {
  assert.deepEqual(schemaOf(WithDefaults).required, ['broken', 'name'])
})

class Base {
  @IsString() id!: string
}
class Derived extends Base {
  @IsInt() n!: number
}

test('inherited decorators are compiled as class-validator applies them', () => {
  assert.deepEqual(Object.keys(schemaOf(Derived).properties).sort(), ['id', 'n'])
})

class Grouped {
  @IsString({ groups: ['create'] }) name!: string
  @IsInt() n!: number
  @IsInt({ always: true }) always!: number
}

test('validation groups pick the decorators as class-validator does', () => {
  assert.deepEqual(Object.keys(schemaOf(Grouped).properties), ['name', 'n', 'always'])
  assert.deepEqual(Object.keys(schemaOf(Grouped, { groups: ['create'] }).properties), ['name', 'always'])
  assert.deepEqual(Object.keys(schemaOf(Grouped, { strictGroups: true }).properties), ['n', 'always'])
})

class Nested {
  @ValidateNested() @Type(() => Tag) tag!: Tag
}

test('forbidNonWhitelisted closes every object, nested ones included; whitelist alone closes none', () => {
  const closed = schemaOf(Nested, { whitelist: true, forbidNonWhitelisted: true })
  assert.equal(closed.additionalProperties, false)
  assert.equal(closed.properties.tag.additionalProperties, false)
  assert.equal(schemaOf(Nested, { whitelist: true }).additionalProperties, undefined)
  assert.equal(schemaOf(Nested, { forbidNonWhitelisted: true }).additionalProperties, undefined)
})

class Skipped {
  @IsString() name!: string
  @IsDefined() @IsString() id!: string
}

test('skipMissingProperties: missing and null values pass, unless @IsDefined()', () => {
  const schema = schemaOf(Skipped, { skipMissingProperties: true })
  assert.deepEqual(schema.properties, { name: { type: ['string', 'null'] }, id: { type: 'string' } })
  assert.deepEqual(schema.required, ['id'])
})

class Each {
  @IsString({ each: true }) names!: string[]
  @IsDefined({ each: true }) items!: unknown[]
}

test('`each` without @IsArray() is documented as an array (a lone value falls back to class-validator)', () => {
  assert.deepEqual(schemaOf(Each).properties, {
    names: { type: 'array', items: { type: 'string' } },
    items: { type: 'array', items: { not: { type: 'null' } } }
  })
})

test('clashing constraints are kept apart in allOf, so nothing passes that one of them rejects', () => {
  assert.deepEqual(merge([{ type: 'string' }, { type: 'integer' }, { type: 'number', minimum: 1 }, { minimum: 3 }]), {
    type: 'string', minimum: 3, allOf: [{ type: 'integer' }, { type: 'number' }]
  })
  assert.deepEqual(merge([{ type: 'number' }, { type: 'integer', maxLength: 4 }, { maxLength: 2 }]), { type: 'integer', maxLength: 2 })
})

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate (value: unknown) { return typeof value === 'number' && value % 2 === 0 }
}
@ValidatorConstraint({ name: 'slow', async: true })
class Slow implements ValidatorConstraintInterface {
  async validate () { return true }
}
class Loop {
  @ValidateNested() @Type(() => Loop) next?: Loop
}

class A { @Validate(Even) n!: number }
class B { @Validate(Slow) n!: number }
class C { @ValidateIf(() => true) @IsString() s!: string }
class D { @IsString({ validateIf: () => true } as any) s!: string }
class E { @ValidatePromise() @IsString() s!: string }
class F { @ValidateNested() t!: Tag }
class G { @Type(() => Map) @IsInt() n!: number }
class G2 { @ValidateNested() @Type(() => Number) n!: number }
class G3 { @IsDate() d!: Date }
class Converting { @Type(() => Number) @IsInt() n!: number }
class G4 { @ValidateNested() @Type(() => Converting) inner!: Converting }
class H { @ValidateNested() @Type(() => Tag, { discriminator: { property: 'k', subTypes: [] } }) t!: Tag }
class I { @ValidateNested() @Type((options) => options ? Tag : Tag) t!: Tag }
class J { @Transform(({ value }) => value) @IsString() s!: string }
class K { @Expose({ name: 'x' }) @IsString() s!: string }
class L { @Exclude() @IsString() s!: string }
class N { @IsString() get s () { return '' } set s (v) {} }
class O { @IsString() describe () { return '' } }
class P { @Matches(/a/i) s!: string }
class Q { @IsEmail({ require_tld: false }) s!: string }
class R { @IsUUID(['4', '5']) s!: string }
class S { @IsNumber({ maxDecimalPlaces: 2 }) n!: number }
class T { @Min('1' as any) n!: number }
class U { @IsDateString({ strict: true }) s!: string }
class V { s!: string }
class W { @ValidateNested() @Type(() => Empty) e!: object }
class X { @IsString() s!: string; extra = 1 }
class Y { @IsString() s!: string; constructor () { throw new Error('no') } }
@Exclude()
class M { @IsString() s!: string }
class Empty {}
const notCompiled: Array<[string, Function, RegExp, Partial<VerdictOptions>?]> = [
  ['a custom constraint', A, /A\.n uses the constraint even/],
  ['an asynchronous constraint', B, /B\.n uses an asynchronous constraint/],
  ['@ValidateIf()', C, /C\.s uses @ValidateIf\(\)/],
  ['a validateIf option', D, /D\.s has a validateIf option/],
  ['@ValidatePromise()', E, /E\.s uses promiseValidation/],
  ['@ValidateNested() without @Type()', F, /F\.t has @ValidateNested\(\) without @Type/],
  ['a DTO nesting itself', Loop, /Loop nests itself \(Loop > Loop\)/],
  ['@Type(() => Map)', G, /G\.n has @Type\(\(\) => Map\), which builds the value into something a schema of the request cannot describe/],
  ['@ValidateNested() with @Type(() => Number)', G2, /G2\.n has @ValidateNested\(\) and @Type\(\(\) => Number\), which converts the value/],
  ['@IsDate() without a conversion to Date', G3, /G3\.d uses isDate without a conversion to Date/],
  ['a conversion inside a nested DTO', G4, /Converting\.n is converted by class-transformer inside the nested DTO Converting/],
  ['@Type() with a discriminator', H, /H\.t has @Type\(\) with a discriminator/],
  ['@Type() reading its arguments', I, /I\.t has @Type\(\) whose function reads its arguments/],
  ['@Transform()', J, /J\.s has @Transform\(\)/],
  ['@Expose()', K, /K has @Expose\(\)/],
  ['@Exclude()', L, /L has @Exclude\(\)/],
  ['a class-level @Exclude()', M, /M has a class-level @Expose\(\) or @Exclude\(\)/],
  ['an accessor', N, /N\.s is an accessor/],
  ['a method name', O, /O\.describe is a method or a reserved name/],
  ['a flagged pattern', P, /P\.s uses matches with flags/],
  ['IsEmail() options', Q, /Q\.s uses isEmail with options/],
  ['several UUID versions', R, /R\.s uses isUuid with several versions/],
  ['IsNumber() options', S, /S\.n uses isNumber with allowInfinity or maxDecimalPlaces/],
  ['a non-numeric bound', T, /T\.n uses min with a bound that is not a finite number/],
  ['IsDateString() options', U, /U\.s uses isDateString with options/],
  ['no decorator', V, /V has no class-validator decorator/],
  ['a nested DTO without decorators under forbidUnknownValues', W, /Empty has no class-validator decorator and forbidUnknownValues rejects it/, { forbidUnknownValues: true }],
  ['a constructor-set field without decorator under forbidNonWhitelisted', X, /the constructor of X sets extra, which has no decorator/, { whitelist: true, forbidNonWhitelisted: true }],
  ['a constructor that throws', Y, /building and validating an empty Y threw: no/]
]

for (const [what, cls, reason, options] of notCompiled) {
  test(`a DTO with ${what} is not compiled, and says why`, () => {
    assert.throws(() => compileDto(cls, { ...defaults, ...options }), (error: unknown) => {
      assert.ok(error instanceof NotCompilable)
      assert.match(error.message, reason)
      return true
    })
  })
}

class Checked {
  @IsOptional() @IsEmail() email?: string
  @IsOptional() @IsUUID('4') id?: string
  @IsOptional() @IsDateString() date?: string
  @IsOptional() @Length(2, 3) code?: string
  @IsOptional() @IsInt() n?: number
  @IsOptional() @IsNumber() x?: number
  @IsOptional() @Matches(/^a\d$/) m?: string
}

test('the compiled validator judges formats, lengths and numbers as class-validator does', () => {
  const variant = new DtoSchemas(Fastify().log, () => false).variant(Checked, compileSettings({ forbidUnknownValues: false }, undefined))
  assert.ok(typeof variant !== 'string')
  const passes = (value: Record<string, unknown>) => variant.check(value)
  assert.equal(passes({ email: 'a@b.co' }), true)
  assert.equal(passes({ email: 'a@b' }), false)
  assert.equal(passes({ id: '0b6dcd6a-0a4f-4e0f-8f4e-2f6d6e5a2b1c' }), true)
  assert.equal(passes({ id: '0b6dcd6a-0a4f-1e0f-8f4e-2f6d6e5a2b1c' }), false, 'a version 1 UUID is not a version 4 one')
  assert.equal(passes({ date: '2024-01-31' }), true)
  assert.equal(passes({ date: '2024-02-30' }), true, 'validator.js does not check the day without strict')
  assert.equal(passes({ date: 'yesterday' }), false)
  // validator.js counts a character and its variation selector as one.
  assert.equal(passes({ code: 'a\uFE0F' }), false)
  assert.equal(passes({ code: 'a\uFE0Fbc\uFE0F' }), true)
  assert.equal(passes({ code: '\u{1F600}\u{1F600}' }), true)
  assert.equal(passes({ n: 2 }), true)
  assert.equal(passes({ n: 2.5 }), false)
  assert.equal(passes({ n: Infinity }), false)
  assert.equal(passes({ x: -Infinity }), false)
  assert.equal(passes({ m: 'a1' }), true)
  assert.equal(passes({ m: 'a12' }), false)
  assert.equal(passes({ n: '2' }), false, 'no coercion')
})

test('a ValidationPipe with transformOptions other than enableImplicitConversion, or validator options of unknown effect, does not compile', () => {
  assert.deepEqual(compileSettings({ forbidUnknownValues: false }, { enableImplicitConversion: true, excludeExtraneousValues: true }), { reason: 'the ValidationPipe has the transformOptions excludeExtraneousValues, which change what class-validator sees' })
  assert.deepEqual(compileSettings({ forbidUnknownValues: false }, { enableImplicitConversion: 'yes' }), { reason: 'the ValidationPipe has the transformOptions enableImplicitConversion, which change what class-validator sees' })
  const implicit = compileSettings({ forbidUnknownValues: false }, { enableImplicitConversion: true })
  assert.ok('fingerprint' in implicit && implicit.implicitConversion)
  const explicit = compileSettings({ forbidUnknownValues: false }, { enableImplicitConversion: false })
  assert.ok('fingerprint' in explicit && !explicit.implicitConversion)
  // A pipe converting implicitly never takes the verdict of one that does not.
  assert.notEqual(implicit.fingerprint, explicit.fingerprint)
  assert.deepEqual(compileSettings({ forbidUnknownValues: false, strange: 1 }, undefined), { reason: 'the ValidationPipe has the validator options strange' })
  const settings = compileSettings({ forbidUnknownValues: false, stopAtFirstError: true, whitelist: true }, {})
  assert.ok('fingerprint' in settings)
  assert.deepEqual(settings.options, { forbidUnknownValues: false, whitelist: true })
})
