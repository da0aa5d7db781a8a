import type { RouteConfigOptions, RouteConstraintsOptions, RouteSchemaOptions } from '../../types/index.js'
import { kRouteConfig, kRouteConstraints, kRouteSchema } from '../util/symbols.js'
import { defineMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { legacyDecorator } from '../util/legacy-decorator.js'

type Options = Record<string, unknown>

const isObject = (value: unknown): value is Options => value !== null && typeof value === 'object' && !Array.isArray(value)

// The parts Fastify compiles; other keys (summary, tags, ...) are left to plugins such as @fastify/swagger.
const schemaParts = ['body', 'querystring', 'params', 'headers', 'response']

// A class there is a DTO, compiled to a JSON schema at registration.
const dtoParts = new Set(['body', 'querystring', 'params'])

function checkSchema (schema: Options): void {
  for (const part of schemaParts) {
    if (!(part in schema) || isObject(schema[part])) continue
    const dto = dtoParts.has(part)
    if (dto && typeof schema[part] === 'function') continue
    throw new ERR_INVALID_DECLARATION(`@RouteSchema(): "${part}" must be a JSON schema object${dto ? ' or a DTO class' : ''}, given ${describe(schema[part])}.`)
  }
}

// Several on one handler merge their top-level keys; on a clash the topmost decorator wins.
function objectDecorator<T extends object> (key: symbol, name: string, check?: (value: Options) => void) {
  return (value: T): MethodDecorator => {
    if (!isObject(value)) throw new ERR_INVALID_DECLARATION(`@${name}() takes an object, given ${describe(value)}.`)
    check?.(value)
    return legacyDecorator(`@${name}()`, (target: object, property: string | symbol, descriptor: PropertyDescriptor) => {
      if (typeof descriptor?.value !== 'function') {
        const owner = typeof target === 'function' ? target.name : `${target.constructor.name}.${String(property)}`
        throw new ERR_INVALID_DECLARATION(`@${name}() decorates a route handler method; ${owner} is not one.`)
      }
      const current = getOwnMetadata<object>(key, descriptor.value)
      defineMetadata(key, { ...current, ...value }, descriptor.value)
    })
  }
}

/** The route's Fastify `schema`: ajv validates input, fast-json-stringify serializes output. */
export const RouteSchema = objectDecorator<RouteSchemaOptions>(kRouteSchema, 'RouteSchema', checkSchema)
/** The route's Fastify `config`, read by plugins such as @fastify/rate-limit. */
export const RouteConfig = objectDecorator<RouteConfigOptions>(kRouteConfig, 'RouteConfig')
/** Extra Fastify route constraints (`host`, `version`, or a strategy the app added). */
export const RouteConstraints = objectDecorator<RouteConstraintsOptions>(kRouteConstraints, 'RouteConstraints')

export interface RouteOptionsMetadata { schema?: RouteSchemaOptions, config?: Options, constraints?: Options }

export function routeOptionsOf (handler: object): RouteOptionsMetadata {
  return {
    schema: getOwnMetadata(kRouteSchema, handler),
    config: getOwnMetadata(kRouteConfig, handler),
    constraints: getOwnMetadata(kRouteConstraints, handler)
  }
}

const builtinConstraints = new Set(['host', 'version'])

/** Fails at planning time on a constraint Fastify has no strategy for, naming the handler. */
export function checkConstraints (owner: string, constraints: Options | undefined, hasStrategy: (name: string) => boolean): void {
  // Most routes have none: no list of keys made for them.
  if (constraints === undefined) return
  for (const name of Object.keys(constraints)) {
    // Fastify always knows its built-in strategies; it reports them only once a route uses them.
    if (!builtinConstraints.has(name) && !hasStrategy(name)) {
      throw new ERR_INVALID_DECLARATION(`${owner}: @RouteConstraints() uses the constraint "${name}", which no strategy handles. Add it with fastify.addConstraintStrategy() before registering the plugin, or use "host" or "version".`)
    }
  }
}
