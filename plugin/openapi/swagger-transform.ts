import type { JsonSchema, ModelSchemas } from './model-schemas.js'
import type { RouteDocument } from './route-document.js'

interface TransformInput {
  schema?: JsonSchema
  url: string
  openapiObject?: { components?: { schemas?: Record<string, JsonSchema>, securitySchemes?: Record<string, unknown> } }
}

const urlParams = /:([A-Za-z0-9_$]+)/g

/**
 * A route's `config.swaggerTransform` for @fastify/swagger: the document gets the route's schema
 * with what @nestjs/swagger's decorators say laid over it, while the route keeps its own schema,
 * so Fastify validates and serializes exactly as it did (a documented response never strips a
 * property of what the handler sends). Called when the document is generated, never per request.
 */
export function swaggerTransform (document: RouteDocument, models: ModelSchemas): (input: TransformInput) => { schema: JsonSchema, url: string } {
  return ({ schema, url, openapiObject }) => {
    const documented: JsonSchema = { ...schema }
    for (const key of Object.keys(document) as Array<keyof RouteDocument>) {
      if (key !== 'response') documented[key] = document[key]
    }
    documented.response = { ...schema?.response, ...document.response }
    // Every path parameter is listed once a route documents some of them.
    if (document.params !== undefined) {
      const properties = { ...document.params.properties }
      for (const [, name] of url.matchAll(urlParams)) properties[name] ??= { type: 'string' }
      documented.params = { type: 'object', properties, required: Object.keys(properties) }
    }
    // @fastify/swagger reads each scheme a requirement names: those its options do not declare
    // (as DocumentBuilder's addBearerAuth() and the like declare them for NestJS) are left out.
    if (document.security !== undefined) {
      const schemes = openapiObject?.components?.securitySchemes ?? {}
      const declared = document.security.filter((requirement) => Object.keys(requirement as object).every((name) => schemes[name] !== undefined))
      if (declared.length > 0) documented.security = declared
      else delete documented.security
    }
    const components = openapiObject?.components?.schemas
    if (components !== undefined) {
      const own = models.components()
      for (const name of Object.keys(own)) components[name] ??= own[name]
    }
    return { schema: documented, url }
  }
}
