import { swaggerKeys, swaggerMetadata } from './swagger-metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'

export type JsonSchema = Record<string, any>

/** One property of a model as @ApiProperty() describes it. */
export interface ModelProperty {
  name: string
  schema: JsonSchema
  required: boolean
}

const componentPath = '#/components/schemas/'

// The options of @ApiProperty() and @ApiResponse() that say what the type is rather than
// being schema keywords themselves.
const typeOptions = new Set(['in', 'type', 'isArray', 'required', 'enum', 'enumName', 'name', 'selfRequired', 'status', 'schema', 'content'])

const primitives = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
  [Object, { type: 'object' }],
  [Array, { type: 'array' }]
])

/** An enum object's or list's values: a numeric enum's reverse-mapped names left out. */
export function enumValues (values: unknown): unknown[] {
  if (Array.isArray(values)) return values
  if (values === null || typeof values !== 'object') return []
  const record = values as Record<string, unknown>
  return Object.keys(record).filter((key) => Number.isNaN(Number(key))).map((key) => record[key])
}

export const enumType = (values: unknown[]): string => values.every((value) => typeof value === 'number') ? 'number' : 'string'

// A class's own decorators' view: `() => Dto` (no prototype) is called; `[Dto]` is an array of Dto.
function unwrap (type: unknown, isArray: boolean): { type: unknown, isArray: boolean } {
  if (typeof type === 'function' && type.prototype === undefined) return unwrap((type as () => unknown)(), isArray)
  if (Array.isArray(type)) return { type: type[0], isArray: true }
  return { type, isArray }
}

/**
 * The models (classes with @ApiProperty()) an application's routes use, as OpenAPI component
 * schemas named by class, built at registration: the document references them as NestJS's does.
 */
export class ModelSchemas {
  readonly #names = new Map<Function, string>()
  readonly #components: Record<string, JsonSchema> = {}

  /** Whether @ApiProperty() was applied to a property of the class (or of a class it extends). */
  isModel (type: unknown): type is Function {
    return typeof type === 'function' && type.prototype !== undefined && !primitives.has(type) &&
      Array.isArray(swaggerMetadata(swaggerKeys.propertyList, type.prototype))
  }

  /** The component schemas, each once. */
  components (): Record<string, JsonSchema> {
    return this.#components
  }

  /** A reference to the class's component, made on first use (a class met again while it is built references itself). */
  ref (cls: Function): JsonSchema {
    let name = this.#names.get(cls)
    if (name === undefined) {
      const base = cls.name || 'Model'
      name = base
      for (let n = 2; this.#components[name] !== undefined; n++) name = `${base}_${n}`
      this.#names.set(cls, name)
      this.#components[name] = {}
      this.#components[name] = this.#objectSchema(cls)
    }
    return { $ref: componentPath + name }
  }

  /** The schema of a type as @ApiProperty(), @ApiResponse() and @ApiBody() give it. */
  schemaOf (type: unknown, isArray = false): JsonSchema | undefined {
    const unwrapped = unwrap(type, isArray)
    const single = this.#single(unwrapped.type)
    if (single === undefined) return undefined
    return unwrapped.isArray ? { type: 'array', items: single } : single
  }

  /** The class's properties in declaration order, inherited ones first. */
  properties (cls: Function): ModelProperty[] {
    const list = swaggerMetadata<string[]>(swaggerKeys.propertyList, cls.prototype) ?? []
    const properties: ModelProperty[] = []
    for (let i = 0; i < list.length; i++) {
      const name = list[i].slice(1)
      const options = swaggerMetadata<Record<string, unknown>>(swaggerKeys.properties, cls.prototype, name) ?? {}
      let schema: JsonSchema
      try {
        schema = this.optionsSchema(options)
      } catch (error) {
        // A lazy `type: () => Dto` that throws, most often an import cycle not yet resolved.
        throw new ERR_INVALID_DECLARATION(`${cls.name}.${name}: the type of its @ApiProperty() could not be read for the OpenAPI document: ${(error as Error)?.message ?? String(error)}. Give a type the property can reach when the application registers.`, { cause: error })
      }
      properties.push({ name, schema, required: options.required !== false })
    }
    return properties
  }

  /** The schema of @ApiProperty()'s (or @ApiQuery()'s, ...) options: the type, then the keywords given. */
  optionsSchema (options: Record<string, unknown>): JsonSchema {
    const keywords: JsonSchema = {}
    for (const key of Object.keys(options)) if (!typeOptions.has(key) && options[key] !== undefined) keywords[key] = options[key]
    const { type, isArray } = unwrap(options.type, options.isArray === true)
    // An array of enum values comes with its items already written.
    if (keywords.items !== undefined && (isArray || type === 'array')) return { ...keywords, type: 'array' }
    let item: JsonSchema
    if (options.enum !== undefined) {
      const values = enumValues(options.enum)
      const declared = this.#single(type)?.type
      item = { type: declared === 'string' || declared === 'number' || declared === 'integer' ? declared : enumType(values), enum: values }
    } else {
      item = (options.schema as JsonSchema | undefined) ?? this.#single(type) ?? {}
    }
    if (isArray) return { ...keywords, type: 'array', items: item }
    // Keywords beside a reference are not read by OpenAPI 3.0: the reference goes in allOf.
    if (item.$ref !== undefined && Object.keys(keywords).length > 0) return { ...keywords, allOf: [item] }
    return { ...item, ...keywords }
  }

  #single (type: unknown): JsonSchema | undefined {
    if (type === undefined || type === null) return undefined
    if (typeof type === 'string') return { type }
    const primitive = primitives.get(type)
    if (primitive !== undefined) return { ...primitive }
    if (this.isModel(type)) return this.ref(type)
    return typeof type === 'function' ? { type: 'object' } : undefined
  }

  #objectSchema (cls: Function): JsonSchema {
    const schema: JsonSchema = { type: 'object', properties: {} }
    const required: string[] = []
    for (const { name, schema: property, required: isRequired } of this.properties(cls)) {
      schema.properties[name] = property
      if (isRequired) required.push(name)
    }
    if (required.length > 0) schema.required = required
    return schema
  }
}
