import type { RouteSchemaOptions } from '../types/index.js'
import { kRouteConfig, kRouteConstraints, kRouteSchema } from './symbols.js'
import { ERR_INVALID_DECLARATION, describe } from './errors.js'

function objectDecorator (key: symbol, name: string) {
  return (value: Record<string, unknown>): MethodDecorator => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ERR_INVALID_DECLARATION(`@${name}() takes an object, given ${describe(value)}.`)
    }
    return (target, property, descriptor) => {
      const current = Reflect.getOwnMetadata(key, descriptor.value as object) ?? {}
      Reflect.defineMetadata(key, { ...current, ...value }, descriptor.value as object)
    }
  }
}

/** The route's Fastify `schema`: ajv validates input, fast-json-stringify serializes output. */
export const RouteSchema: (schema: RouteSchemaOptions) => MethodDecorator = objectDecorator(kRouteSchema, 'RouteSchema') as any
/** The route's Fastify `config`, read by plugins such as @fastify/rate-limit. */
export const RouteConfig: (config: Record<string, unknown>) => MethodDecorator = objectDecorator(kRouteConfig, 'RouteConfig')
/** Extra Fastify route constraints. */
export const RouteConstraints: (constraints: Record<string, unknown>) => MethodDecorator = objectDecorator(kRouteConstraints, 'RouteConstraints')

export function routeOptionsOf (handler: object): { schema?: RouteSchemaOptions, config?: Record<string, unknown>, constraints?: Record<string, unknown> } {
  return {
    schema: Reflect.getOwnMetadata(kRouteSchema, handler),
    config: Reflect.getOwnMetadata(kRouteConfig, handler),
    constraints: Reflect.getOwnMetadata(kRouteConstraints, handler)
  }
}
