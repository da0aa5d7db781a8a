import type { ParamDefinition } from '../decorators/params.js'
import { swaggerKeys, swaggerMetadata } from './swagger-metadata.js'
import type { JsonSchema, ModelSchemas } from './model-schemas.js'

/** What the document needs of a handler, read from its scan. */
export interface DocumentedHandler {
  cls: Function
  key: string | symbol
  method: Function
  params: ParamDefinition[]
  paramTypes: unknown[] | undefined
  /** The status it answers with (201 for POST unless @HttpCode says otherwise). */
  status: number
}

type Part = 'params' | 'querystring' | 'headers'
type Entry = Record<string, any>

/** The route schema keys @fastify/swagger documents, as @nestjs/swagger's decorators give them. */
export interface RouteDocument {
  hide?: true
  tags: string[]
  summary?: string
  description?: string
  operationId: string
  deprecated?: true
  security?: unknown[]
  produces?: string[]
  consumes?: string[]
  params?: JsonSchema
  querystring?: JsonSchema
  headers?: JsonSchema
  body?: JsonSchema
  response: Record<string, JsonSchema>
}

const partOf: Record<string, Part> = { path: 'params', query: 'querystring', header: 'headers' }
const implicitParts: Partial<Record<ParamDefinition['kind'], Part>> = { param: 'params', query: 'querystring', headers: 'headers' }
const json = ['application/json']
const typed = (schema: JsonSchema): boolean => schema.type !== undefined || schema.$ref !== undefined || schema.allOf !== undefined || schema.enum !== undefined

/**
 * Reads @nestjs/swagger's decorators on a handler and its controller, once at registration: its
 * operation, tags, security, parameters, body and responses as @fastify/swagger reads a route
 * schema, with @ApiProperty() models referenced as components.
 */
export function documentRoute (handler: DocumentedHandler, models: ModelSchemas): RouteDocument {
  const { cls, method } = handler
  const operation = swaggerMetadata<Entry>(swaggerKeys.operation, method) ?? {}
  const excluded = swaggerMetadata<Entry>(swaggerKeys.excludeEndpoint, method)?.disable === true ||
    (swaggerMetadata<unknown[]>(swaggerKeys.excludeController, cls) ?? []).includes(true)
  const tags = unique([...swaggerMetadata<string[]>(swaggerKeys.tags, cls) ?? [], ...swaggerMetadata<string[]>(swaggerKeys.tags, method) ?? []])
  const produces = swaggerMetadata<string[]>(swaggerKeys.produces, method) ?? swaggerMetadata<string[]>(swaggerKeys.produces, cls)
  const document: RouteDocument = {
    // As NestJS names untagged controllers: by class, without the Controller suffix.
    tags: tags.length > 0 ? tags : [cls.name.replace(/Controller$/, '')],
    operationId: typeof operation.operationId === 'string' ? operation.operationId : `${cls.name}_${String(handler.key)}`,
    response: responses(handler, models, produces === undefined || produces.length === 0 ? json : produces)
  }
  if (excluded) document.hide = true
  if (operation.summary) document.summary = operation.summary
  if (operation.description) document.description = operation.description
  if (operation.deprecated === true) document.deprecated = true
  const security = [...swaggerMetadata<unknown[]>(swaggerKeys.security, cls) ?? [], ...swaggerMetadata<unknown[]>(swaggerKeys.security, method) ?? []]
  if (security.length > 0) document.security = security
  if (produces !== undefined) document.produces = produces
  const consumes = swaggerMetadata<string[]>(swaggerKeys.consumes, method) ?? swaggerMetadata<string[]>(swaggerKeys.consumes, cls)
  if (consumes !== undefined) document.consumes = consumes
  requestParts(handler, models, document)
  return document
}

function unique (values: string[]): string[] {
  return values.filter((value, i) => values.indexOf(value) === i)
}

// The parameters the handler reads (their design types), then @ApiParam(), @ApiQuery(),
// @ApiHeader() and @ApiBody(), which win for the same name.
function requestParts (handler: DocumentedHandler, models: ModelSchemas, document: RouteDocument): void {
  const parts: Partial<Record<Part, { properties: Record<string, JsonSchema>, required: string[] }>> = {}
  const put = (part: Part, name: string, schema: JsonSchema, required: boolean): void => {
    const target = parts[part] ??= { properties: {}, required: [] }
    target.properties[name] = schema
    target.required = target.required.filter((other) => other !== name)
    if (required || part === 'params') target.required.push(name)
  }
  for (const param of handler.params) {
    const type = handler.paramTypes?.[param.index]
    if (param.kind === 'body' && param.data === undefined && models.isModel(type)) {
      document.body = models.ref(type)
      continue
    }
    const part = implicitParts[param.kind]
    if (part === undefined) continue
    if (param.data !== undefined) put(part, param.data, models.schemaOf(type) ?? { type: 'string' }, true)
    else if (part === 'querystring' && models.isModel(type)) {
      for (const property of models.properties(type)) put(part, property.name, property.schema, property.required)
    }
  }
  const explicit = [...swaggerMetadata<Entry[]>(swaggerKeys.headers, handler.cls) ?? [], ...swaggerMetadata<Entry[]>(swaggerKeys.parameters, handler.method) ?? []]
  for (const entry of explicit) {
    if (entry.in === 'body') {
      const body = entry.schema ?? models.schemaOf(entry.type, entry.isArray === true)
      if (body !== undefined) document.body = entry.description === undefined ? body : { ...body, description: entry.description }
      continue
    }
    const part = partOf[entry.in as string]
    if (part === undefined || typeof entry.name !== 'string') continue
    let schema = models.optionsSchema(entry)
    if (!typed(schema)) schema = { ...(parts[part]?.properties[entry.name] ?? { type: 'string' }), ...schema }
    put(part, entry.name, schema, entry.required !== false)
  }
  for (const part of Object.keys(parts) as Part[]) {
    const { properties, required } = parts[part]!
    document[part] = required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
  }
}

// @ApiResponse() and its shorthands on the controller and the handler (the handler's win for a
// status); without any on the handler, the status it answers with.
function responses (handler: DocumentedHandler, models: ModelSchemas, produces: string[]): Record<string, JsonSchema> {
  const own: Record<string, Entry> = swaggerMetadata(swaggerKeys.response, handler.method) ?? { [handler.status]: { description: '' } }
  const declared: Record<string, Entry> = { ...swaggerMetadata(swaggerKeys.response, handler.cls), ...own }
  const documented: Record<string, JsonSchema> = {}
  for (const status of Object.keys(declared)) {
    const entry = declared[status]
    const description = typeof entry.description === 'string' ? entry.description : ''
    const schema = entry.schema ?? (entry.type === undefined ? undefined : models.schemaOf(entry.type, entry.isArray === true))
    // A `null` type tells @fastify/swagger that the response has no content.
    documented[status] = schema === undefined
      ? { type: 'null', description }
      : { description, content: Object.fromEntries(produces.map((type) => [type, { schema }])) }
  }
  return documented
}
