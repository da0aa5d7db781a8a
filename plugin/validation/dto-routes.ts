import type { PipeTransform, RouteSchemaOptions } from '../../types/index.js'
import type { EnhancerRef } from '../di/enhancer-ref.js'
import type { ParamDefinition } from '../decorators/params.js'
import type { DtoSchemas } from './dto-registry.js'
import type { CompileSettings } from './dto-verdicts.js'
import { isValidatedType } from './validation-pipe.js'
import { kDtoCompile } from '../util/symbols.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'

type Part = 'body' | 'querystring' | 'params'
type Validator = (data: unknown) => unknown
type Schema = Record<string, unknown>

const paramParts: Partial<Record<ParamDefinition['kind'], Part>> = { body: 'body', query: 'querystring', param: 'params' }
// The `type` a pipe is told for each part.
const pipeTypes = { body: 'body', querystring: 'query', params: 'param' } as const
const requestParts = ['body', 'querystring', 'query', 'params', 'headers'] as const

export interface RouteDtoPlan {
  schema?: RouteSchemaOptions
  /** Fastify's route-level compiler for the parts that are compiled DTOs. */
  validatorCompiler?: (options: { httpPart?: string }) => Validator
}

export interface DtoParam {
  param: ParamDefinition
  metatype: unknown
  /** The parameter's pipes in the order they run. */
  pipes: Array<EnhancerRef<PipeTransform>>
}

// Only pipes given as instances are known before the application is built.
const compileSettingsOf = (pipe: EnhancerRef<PipeTransform> | undefined): CompileSettings | undefined =>
  (pipe?.value as { [kDtoCompile]?: CompileSettings } | undefined)?.[kDtoCompile]

const isClass = (value: unknown): value is Function => typeof value === 'function'

function containsClass (value: unknown): boolean {
  if (isClass(value)) return true
  if (value === null || typeof value !== 'object') return false
  return Object.values(value).some(containsClass)
}

/** Whether a parameter takes a whole request part (`@Body()`, `@Query()`, `@Param()`): only those can be compiled DTOs. */
export function isDtoPart (param: ParamDefinition): boolean {
  return paramParts[param.kind] !== undefined && param.data === undefined
}

const noDtos: RouteDtoPlan = Object.freeze({})

/**
 * The route's Fastify schema with DTOs compiled in: DTO classes given in @RouteSchema (request
 * parts answer 400 in Fastify's validation step; response parts feed serialization), then the
 * `@Body()`, `@Query()` and `@Param()` objects whose first pipe is a compiling ValidationPipe.
 */
export function planRouteDtos (owner: string, declared: RouteSchemaOptions | undefined, params: DtoParam[], uploads: boolean, dto: DtoSchemas): RouteDtoPlan {
  // Most routes: no schema of their own, no whole request part with a pipe.
  if (declared === undefined && params.length === 0) return noDtos
  const given = (declared ?? {}) as Schema
  const schema: Schema = { ...given }
  const validators: Partial<Record<Part, Validator>> = {}
  const mine: string[] = []
  const theirs: string[] = []
  for (const key of requestParts) {
    const value = given[key]
    if (value === undefined) continue
    if (!isClass(value)) {
      if (containsClass(value)) throw new ERR_INVALID_DECLARATION(`${owner}: @RouteSchema() has a DTO class inside the JSON schema of "${key}". A DTO class can stand for a whole request part (body, querystring, params); inside a JSON schema, use a JSON schema.`)
      theirs.push(key)
      continue
    }
    if (key === 'headers') throw new ERR_INVALID_DECLARATION(`${owner}: @RouteSchema() gives the DTO class ${value.name} for "headers"; DTO classes can stand for body, querystring and params. Give headers a JSON schema.`)
    const part: Part = key === 'query' ? 'querystring' : key
    const variant = dto.variant(value)
    if (typeof variant === 'string') throw new ERR_INVALID_DECLARATION(`${owner}: @RouteSchema() gives the DTO class ${value.name} for "${key}", which cannot be compiled to a JSON schema: ${variant}. Validate it with a ValidationPipe instead, or give a JSON schema.`)
    delete schema[key]
    schema[part] = part === 'body' ? { $ref: `${variant.id}#` } : variant.schema
    validators[part] = dto.strict(variant, pipeTypes[part])
    mine.push(key)
  }
  if (mine.length > 0 && theirs.length > 0) {
    throw new ERR_INVALID_DECLARATION(`${owner}: @RouteSchema() gives DTO classes (${mine.join(', ')}) and JSON schemas (${theirs.join(', ')}) for the request. Fastify checks a route's request with one compiler: use DTO classes for all of its parts, or JSON schemas for all.`)
  }
  if (given.response !== undefined) schema.response = compileResponses(owner, given.response, dto)

  const wanted = new Map<Part, Array<{ cls: Function, settings: CompileSettings }>>()
  for (const { param, metatype, pipes } of params) {
    const part = paramParts[param.kind]
    if (part === undefined || param.data !== undefined || !isValidatedType(metatype)) continue
    const settings = compileSettingsOf(pipes[0])
    if (settings === undefined) {
      if (pipes.some((pipe) => compileSettingsOf(pipe) !== undefined)) dto.notCompiled(metatype, `${owner}: a pipe runs before the compiling ValidationPipe`)
      continue
    }
    if (theirs.length > 0) dto.notCompiled(metatype, `${owner}: its @RouteSchema() has JSON schemas for the request`)
    else if (part === 'body' && uploads) dto.notCompiled(metatype, `${owner}: its body is multipart`)
    else wanted.set(part, [...(wanted.get(part) ?? []), { cls: metatype, settings }])
  }
  for (const [part, entries] of wanted) {
    if (validators[part] !== undefined) continue
    if (entries.length > 1) {
      for (const { cls } of entries) dto.notCompiled(cls, `${owner}: several parameters read the whole ${part}`)
      continue
    }
    const variant = dto.variant(entries[0].cls, entries[0].settings)
    if (typeof variant === 'string') continue
    schema[part] = part === 'body' ? { $ref: `${variant.id}#` } : variant.schema
    validators[part] = dto.deferred(variant, pipeTypes[part])
  }

  if (Object.keys(validators).length === 0) return { schema: schema.response === given.response ? declared : schema as RouteSchemaOptions }
  return {
    schema: schema as RouteSchemaOptions,
    validatorCompiler: ({ httpPart }) => {
      const validator = validators[httpPart as Part]
      // Routes mixing both kinds of request schema were refused above.
      if (validator === undefined) throw new Error(`${owner}: no compiled DTO for ${String(httpPart)}`)
      return validator
    }
  }
}

/** Response schemas with each DTO class replaced by a reference to its shared schema. */
function compileResponses (owner: string, value: unknown, dto: DtoSchemas): unknown {
  if (isClass(value)) {
    const variant = dto.variant(value)
    if (typeof variant === 'string') throw new ERR_INVALID_DECLARATION(`${owner}: @RouteSchema() gives the DTO class ${value.name} for a response, which cannot be compiled to a JSON schema: ${variant}. Give a JSON schema.`)
    return { $ref: `${variant.id}#` }
  }
  if (value === null || typeof value !== 'object' || !containsClass(value)) return value
  if (Array.isArray(value)) return value.map((item) => compileResponses(owner, item, dto))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compileResponses(owner, item, dto)]))
}
