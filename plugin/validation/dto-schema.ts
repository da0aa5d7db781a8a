import { isDeepStrictEqual } from 'node:util'
import { loadDtoPeers, type DtoPeers, type ValidationMetadata } from './dto-peers.js'
import type { ClassPlan, VerdictOptions } from './dto-verdicts.js'
import { conversionTo, type Conversion, type PropertyConversion } from './dto-conversions.js'
import { fieldPlan, type FieldPlan } from './dto-instances.js'

export type JsonSchema = Record<string, any>

export interface DtoCompilation {
  /** A JSON schema that accepts no value class-validator rejects. */
  schema: JsonSchema
  plans: Map<Function, ClassPlan>
  /** The top-level properties class-transformer converts, which the schema judges converted. */
  conversions: PropertyConversion[]
  /** How class-transformer builds each declared property of the class itself. */
  fields: Map<string, FieldPlan>
}

/** Why a DTO keeps class-validator at run time. */
export class NotCompilable extends Error {}

const fail = (reason: string): never => { throw new NotCompilable(reason) }

// Types class-transformer builds a value into, which a schema of the request cannot follow
// (Number, String, Boolean and Date are conversions the compiled check makes as it does).
const converted = new Set<unknown>([Number, String, Boolean, Date, Array, Map, Set, Promise, Symbol, BigInt, Object, Function,
  ...(typeof Buffer === 'function' ? [Buffer] : [])])

interface Context {
  peers: DtoPeers
  options: VerdictOptions
  plans: Map<Function, ClassPlan>
  /** class-transformer's enableImplicitConversion: properties converted by their design type. */
  implicitConversion: boolean
  conversions: PropertyConversion[]
  /** Per class compiled: how class-transformer builds each declared property. */
  fields: Map<Function, Map<string, FieldPlan>>
  /** Classes being compiled, outermost first: a class met again nests itself. */
  stack: Function[]
}

/**
 * Compiles a class-validator DTO to a JSON schema. Every supported decorator becomes the JSON
 * Schema keyword that accepts exactly what it accepts (formats and lengths are checked by
 * class-validator's own functions in the compiled validator); a few shapes are documented
 * stricter than class-validator reads them (a nested DTO is an object, `each` means an array),
 * which only sends such rare values back to class-validator. Throws NotCompilable with the reason.
 */
export function compileDto (cls: Function, options: VerdictOptions, implicitConversion = false): DtoCompilation {
  const ctx: Context = { peers: loadDtoPeers(), options, plans: new Map(), implicitConversion, conversions: [], fields: new Map(), stack: [] }
  const schema = compileClass(cls, ctx)
  return { schema, plans: ctx.plans, conversions: ctx.conversions, fields: ctx.fields.get(cls)! }
}

function compileClass (cls: Function, ctx: Context): JsonSchema {
  const { peers, options } = ctx
  if (ctx.stack.includes(cls)) fail(`${cls.name} nests itself (${[...ctx.stack, cls].map((c) => c.name).join(' > ')}), which a schema without references cannot`)
  const metadatas = peers.validators.getTargetValidationMetadatas(cls, '', options.always === true, options.strictGroups === true, options.groups)
  if (metadatas.length === 0) {
    if (ctx.stack.length === 0) fail(`${cls.name} has no class-validator decorator`)
    if (options.forbidUnknownValues) fail(`${cls.name} has no class-validator decorator and forbidUnknownValues rejects it`)
  }
  checkTransforms(cls, peers)
  const grouped = peers.validators.groupByPropertyName(metadatas)
  const properties = Object.keys(grouped)

  // What class-validator says about an empty body tells which properties may be left out
  // (a constructor may give them valid defaults).
  let probe: any
  let errors: ReturnType<DtoPeers['validateSync']>
  try {
    probe = peers.plainToInstance(cls as any, {}, { enableImplicitConversion: ctx.implicitConversion })
    errors = peers.validateSync(probe, { ...options })
  } catch (error) {
    return fail(`building and validating an empty ${cls.name} threw: ${(error as Error).message}`)
  }
  for (const error of errors) {
    if (error.constraints?.whitelistValidation !== undefined) fail(`the constructor of ${cls.name} sets ${error.property}, which has no decorator, and forbidNonWhitelisted rejects it on every request`)
    if (error.constraints?.unknownValue !== undefined) fail(`class-validator rejects an empty ${cls.name} as an unknown value`)
  }
  const failing = new Set(errors.map((error) => error.property))

  const schema: JsonSchema = { type: 'object', properties: {} }
  const nested: string[] = []
  const fields = new Map<string, FieldPlan>()
  ctx.stack.push(cls)
  for (const property of properties) {
    checkAssignable(cls, probe, property)
    const { schema: propertySchema, isNested, conversion, reflectedType } = compileProperty(cls, property, grouped[property], ctx)
    schema.properties[property] = propertySchema
    fields.set(property, fieldPlan(conversion, reflectedType))
    if (isNested) nested.push(property)
    if (conversion !== undefined) {
      // The check converts the request's own properties; class-transformer converts nested ones too.
      if (ctx.stack.length > 1) fail(`${cls.name}.${property} is converted by class-transformer inside the nested DTO ${cls.name}, which the compiled check does not follow`)
      ctx.conversions.push({ property, to: conversion })
    }
  }
  ctx.stack.pop()
  const required = properties.filter((property) => failing.has(property))
  if (required.length > 0) schema.required = required
  if (options.whitelist && options.forbidNonWhitelisted) schema.additionalProperties = false
  ctx.plans.set(cls, { allowed: new Set(properties), nested })
  ctx.fields.set(cls, fields)
  return schema
}

// class-transformer renames, drops or rewrites such properties before class-validator sees them.
function checkTransforms (cls: Function, peers: DtoPeers): void {
  const storage = peers.transformers
  if (storage.getStrategy(cls) !== 'none') fail(`${cls.name} has a class-level @Expose() or @Exclude() of class-transformer`)
  if (storage.getExposedMetadatas(cls).length > 0) fail(`${cls.name} has @Expose() of class-transformer on a property`)
  if (storage.getExcludedMetadatas(cls).length > 0) fail(`${cls.name} has @Exclude() of class-transformer on a property`)
}

// class-transformer does not assign methods or getter-only properties from the request, and a
// setter may change what it is given.
function checkAssignable (cls: Function, probe: any, property: string): void {
  for (let proto = cls.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, property)
    if (descriptor !== undefined && (descriptor.get !== undefined || descriptor.set !== undefined)) fail(`${cls.name}.${property} is an accessor`)
  }
  if (property === '__proto__' || property === 'constructor' || probe[property] instanceof Function) {
    fail(`${cls.name}.${property} is a method or a reserved name, which class-transformer does not assign`)
  }
}

function compileProperty (cls: Function, property: string, metadatas: ValidationMetadata[], ctx: Context): { schema: JsonSchema, isNested: boolean, conversion?: Conversion, reflectedType?: unknown } {
  const { peers, options } = ctx
  const where = `${cls.name}.${property}`
  const single: JsonSchema[] = []
  const each: JsonSchema[] = []
  let optional = false
  let defined = false
  let nested = false
  let nestedEach = false
  let notEmpty = false
  let isDate = false
  for (const metadata of metadatas) {
    if (metadata.validateIf !== undefined) fail(`${where} has a validateIf option`)
    switch (metadata.type) {
      case 'conditionalValidation':
        if (metadata.name !== 'isOptional') fail(`${where} uses @ValidateIf()`)
        optional = true
        break
      case 'whitelistValidation':
        break
      case 'isDefined':
        // With `each`, every item must be defined: an item schema.
        if (metadata.each) each.push({ not: { type: 'null' } })
        else defined = true
        break
      case 'nestedValidation':
        nested = true
        nestedEach ||= metadata.each === true
        break
      case 'customValidation': {
        const constraints = peers.validators.getTargetValidatorConstraints(metadata.constraintCls!)
        if (constraints.length !== 1) fail(`${where} has a constraint class with ${constraints.length} implementations`)
        if (constraints[0].async) fail(`${where} uses an asynchronous constraint`)
        const name = constraints[0].name ?? metadata.name ?? 'a custom constraint'
        const fragment = constraintSchema(name, metadata.constraints ?? [], where)
        if (metadata.each) each.push(fragment)
        else if (name === 'isNotEmpty') notEmpty = true
        else single.push(fragment)
        isDate ||= name === 'isDate'
        break
      }
      default:
        fail(`${where} uses ${metadata.type}, which has no JSON Schema form`)
    }
  }

  const typeMetadata = peers.transformers.findTypeMetadata(cls, property)
  if (peers.transformers.findTransformMetadatas(cls, property, peers.plainToClass).length > 0) fail(`${where} has @Transform() of class-transformer`)
  let nestedClass: Function | undefined
  let conversion: Conversion | undefined
  // class-transformer reads @Type() first, then (with implicit conversion) the design type.
  if (typeMetadata !== undefined) {
    const target = typeTarget(typeMetadata, where)
    conversion = conversionTo(target)
    if (conversion === undefined) nestedClass = target
    else if (nested) fail(`${where} has @ValidateNested() and @Type(() => ${target.name}), which converts the value instead of building a nested DTO`)
  } else if (ctx.implicitConversion) {
    conversion = implicitConversion(cls, property, where)
  }
  if (nested && nestedClass === undefined) fail(`${where} has @ValidateNested() without @Type(() => Class) of class-transformer, so class-validator sees a plain object`)
  // No request value is a Date unless class-transformer builds one.
  if (isDate && conversion !== 'date') fail(`${where} uses isDate without a conversion to Date (@Type(() => Date), or a Date design type with implicit conversion)`)

  let schema = merge(single)
  // Said with the property's type when it has one: a non-empty string, or nothing more to say.
  if (notEmpty) schema = merge([schema, schema.type === 'string' ? { minLength: 1 } : (typeof schema.type === 'string' ? {} : notEmptySchema)])
  if (nested) {
    const inner = compileClass(nestedClass!, ctx)
    if (nestedEach || each.length > 0 || schema.type === 'array') each.push(inner)
    else schema = merge([schema, inner])
  }
  if (each.length > 0) schema = merge([schema, { type: 'array', items: merge(each) }])
  if (defined && schema.type === undefined) schema = merge([schema, { not: { type: 'null' } }])
  // class-validator skips the property when it is null (and undefined, left to `required`).
  if (optional || ((options.skipNullProperties || options.skipMissingProperties) && !defined)) schema = nullable(schema)
  return { schema, isNested: nested, conversion, reflectedType: typeMetadata?.reflectedType }
}

// What implicit conversion does with the property's design type (none without one).
function implicitConversion (cls: Function, property: string, where: string): Conversion | undefined {
  const getMetadata = (Reflect as { getMetadata?: (key: string, target: object, property: string) => unknown }).getMetadata
  if (typeof getMetadata !== 'function') return fail(`${where}: implicit conversion reads design types with reflect-metadata, which is not loaded`)
  const type = getMetadata('design:type', cls.prototype, property)
  if (!type) return undefined
  const conversion = conversionTo(type)
  if (conversion !== undefined) return conversion
  // A class, Array or Object leaves strings, numbers and booleans as they are.
  if (typeof type === 'function' && (type === Array || type === Object || !converted.has(type))) return 'keep'
  return fail(`${where} is declared as ${typeof type === 'function' ? type.name : String(type)}, which implicit conversion builds from the value`)
}

function typeTarget (metadata: NonNullable<ReturnType<DtoPeers['transformers']['findTypeMetadata']>>, where: string): Function {
  if (metadata.options?.discriminator !== undefined) fail(`${where} has @Type() with a discriminator`)
  const fn = metadata.typeFunction
  if (typeof fn !== 'function') return fail(`${where} has @Type() without a type function`)
  if (fn.length > 0) fail(`${where} has @Type() whose function reads its arguments, so its class depends on the value`)
  if (metadata.reflectedType === Set || metadata.reflectedType === Map) fail(`${where} is declared as a Set or Map, which class-transformer builds from an array`)
  const target = fn()
  if (typeof target !== 'function' || (converted.has(target) && conversionTo(target) === undefined)) fail(`${where} has @Type(() => ${typeof target === 'function' ? target.name : String(target)}), which builds the value into something a schema of the request cannot describe`)
  return target as Function
}

const notEmptySchema = { not: { enum: ['', null] } }
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0
const isBound = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)
const isPrimitive = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value)
const uuidVersions = new Set(['1', '2', '3', '4', '5', '6', '7', '8', 'nil', 'max', 'loose'])

/** The UUID format name for a class-validator version argument, for the compiled validator and the document. */
export function uuidFormat (version: unknown): string | undefined {
  if (version === undefined || version === null || version === 'all') return 'uuid'
  const name = String(version)
  if (!uuidVersions.has(name)) return undefined
  return /^\d$/.test(name) ? `uuid-v${name}` : `uuid-${name}`
}

/** One built-in constraint as a schema accepting what it accepts. */
function constraintSchema (name: string, constraints: unknown[], where: string): JsonSchema {
  const [first, second] = constraints
  const unsupported = (what: string): never => fail(`${where} uses ${name} ${what}, which has no exact JSON Schema form`)
  switch (name) {
    case 'isString': return { type: 'string' }
    case 'isBoolean': return { type: 'boolean' }
    case 'isInt': return { type: 'integer' }
    case 'isArray': return { type: 'array' }
    // A keyword of the compiled check (documented as a date-time string): the value is a Date by then.
    case 'isDate': return { isDate: true }
    case 'isObject': return { type: 'object' }
    case 'isNumber': {
      const numberOptions = (first ?? {}) as { allowInfinity?: boolean, maxDecimalPlaces?: number }
      if (numberOptions.allowInfinity || numberOptions.maxDecimalPlaces !== undefined) unsupported('with allowInfinity or maxDecimalPlaces')
      return { type: 'number' }
    }
    case 'min': return isBound(first) ? { type: 'number', minimum: first } : unsupported('with a bound that is not a finite number')
    case 'max': return isBound(first) ? { type: 'number', maximum: first } : unsupported('with a bound that is not a finite number')
    case 'isPositive': return { type: 'number', exclusiveMinimum: 0 }
    case 'isNegative': return { type: 'number', exclusiveMaximum: 0 }
    case 'minLength': return isCount(first) ? { type: 'string', minLength: first } : unsupported('with a length that is not a whole number')
    case 'maxLength': return isCount(first) ? { type: 'string', maxLength: first } : unsupported('with a length that is not a whole number')
    case 'isLength': {
      if ((first !== undefined && !isCount(first)) || (second !== undefined && !isCount(second))) unsupported('with lengths that are not whole numbers')
      const schema: JsonSchema = { type: 'string', minLength: first ?? 0 }
      if (second !== undefined) schema.maxLength = second
      return schema
    }
    case 'isIn': {
      if (!Array.isArray(first) || first.length === 0 || !first.every(isPrimitive)) unsupported('with values that are not strings, numbers, booleans or null')
      return { enum: [...new Set(first as unknown[])] }
    }
    case 'isEnum': {
      if (!Array.isArray(second) || second.length === 0 || !second.every(isPrimitive)) unsupported('with an enum that is not of strings or numbers')
      return { enum: [...new Set(second as unknown[])] }
    }
    case 'matches': {
      if (first instanceof RegExp && first.flags === '' && second === undefined) return { type: 'string', pattern: first.source }
      if (typeof first === 'string' && (second === undefined || second === '')) return { type: 'string', pattern: first }
      return unsupported('with flags')
    }
    case 'isEmail': return first === undefined ? { type: 'string', format: 'email' } : unsupported('with options')
    case 'isUuid': {
      const format = uuidFormat(first)
      return format === undefined ? unsupported('with several versions') : { type: 'string', format }
    }
    case 'isDateString':
    case 'isIso8601': return first === undefined ? { type: 'string', format: 'date-time' } : unsupported('with options')
    case 'isNotEmpty': return notEmptySchema
    case 'arrayNotEmpty': return { type: 'array', minItems: 1 }
    case 'arrayMinSize': return isCount(first) ? { type: 'array', minItems: first } : unsupported('with a size that is not a whole number')
    case 'arrayMaxSize': return isCount(first) ? { type: 'array', maxItems: first } : unsupported('with a size that is not a whole number')
    default: return fail(`${where} uses the constraint ${name} (a custom one, or one the compiler does not translate)`)
  }
}

const lower = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems'])
const upper = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'])

/** All of `schemas` in one schema: shared keywords combined, clashes kept apart in allOf. */
export function merge (schemas: JsonSchema[]): JsonSchema {
  const result: JsonSchema = {}
  const apart: JsonSchema[] = []
  for (const schema of schemas) {
    for (const [key, value] of Object.entries(schema)) {
      const current = result[key]
      if (current === undefined) result[key] = value
      else if (lower.has(key)) result[key] = Math.max(current, value)
      else if (upper.has(key)) result[key] = Math.min(current, value)
      else if (key === 'type' && [current, value].includes('integer') && [current, value].includes('number')) result[key] = 'integer'
      else if (key === 'items') result[key] = merge([current, value])
      else if (key === 'properties' || isDeepStrictEqual(current, value)) continue
      else apart.push({ [key]: value })
    }
  }
  if (apart.length > 0) result.allOf = [...(result.allOf ?? []), ...apart]
  return result
}

/** The schema that also accepts null. */
function nullable (schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema
  const { type, enum: values, ...rest } = schema
  const restricts = Object.keys(rest).some((key) => key === 'not' || key === 'allOf')
  if (restricts || (type === undefined && values === undefined)) return { anyOf: [{ type: 'null' }, schema] }
  const result: JsonSchema = {}
  if (type !== undefined) result.type = [type, 'null']
  if (values !== undefined) result.enum = values.includes(null) ? values : [...values, null]
  return Object.assign(result, rest)
}
