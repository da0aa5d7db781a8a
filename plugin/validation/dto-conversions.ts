// A JSON schema (dto-schema.ts's JsonSchema, which imports this file).
type JsonSchema = Record<string, any>

/**
 * What class-transformer makes of a property's value before class-validator sees it: `number`,
 * `string`, `boolean` and `date` are `Number(value)`, `String(value)`, `Boolean(value)` and
 * `new Date(value)`, item by item in an array, null and undefined left as they are; `keep` leaves
 * strings, numbers and booleans alone (a design type of Array, Object or a class under implicit
 * conversion) but would build an object into something else.
 */
export type Conversion = 'number' | 'string' | 'boolean' | 'date' | 'keep'

export interface PropertyConversion { property: string, to: Conversion }

export type Convert = (value: string | number | boolean) => unknown

export const converters: Record<Conversion, Convert> = {
  number: Number,
  string: String,
  boolean: Boolean,
  date: (value) => new Date(value as string | number),
  keep: (value) => value
}

/** The conversion class-transformer applies to a property of this type, if it is one of the four. */
export function conversionTo (type: unknown): Conversion | undefined {
  if (type === Number) return 'number'
  if (type === String) return 'string'
  if (type === Boolean) return 'boolean'
  if (type === Date) return 'date'
  return undefined
}

// A value the compiled check leaves to class-validator: an object (class-transformer builds it
// into an instance or an array, or fails to convert an object without a prototype).
export const unconvertible = Symbol('unconvertible')

/** What class-transformer makes of a primitive, null or undefined, or of an array of them (a new array); `unconvertible` for anything else. */
export function convertValue (value: unknown, convert: Convert): unknown {
  if (value === null || value === undefined) return value
  const type = typeof value
  if (type === 'string' || type === 'number' || type === 'boolean') return convert(value as string)
  if (!Array.isArray(value)) return unconvertible
  const items = new Array(value.length)
  for (let i = 0; i < value.length; i++) {
    const item = convertValue(value[i], convert)
    if (item === unconvertible) return unconvertible
    items[i] = item
  }
  return items
}

/**
 * `check` applied to what class-transformer makes of the value: a copy of the object with the
 * converted properties (the request's value itself is never changed). A property holding an
 * object fails the check, which sends the value to class-validator.
 */
export function convertingCheck (check: (data: unknown) => boolean, conversions: PropertyConversion[]): (data: unknown) => boolean {
  const properties = conversions.map((conversion) => conversion.property)
  const converts = conversions.map((conversion) => converters[conversion.to])
  return (data) => {
    if (data === null || typeof data !== 'object') return check(data)
    let copy: Record<string, unknown> | undefined
    for (let i = 0; i < properties.length; i++) {
      const value = (data as Record<string, unknown>)[properties[i]]
      if (value === undefined || value === null) continue
      const converted = convertValue(value, converts[i])
      if (converted === unconvertible) return false
      if (converted === value) continue
      // A spread defines keys such as `__proto__` as the request has them.
      copy ??= { ...data }
      copy[properties[i]] = converted
    }
    return check(copy ?? data)
  }
}

/**
 * The schema as the request is documented: the compiled check's `isDate` (a Date built by
 * conversion) is a date-time string in the request.
 */
export function documented (schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map(documented)
  if (schema === null || typeof schema !== 'object') return schema
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'isDate') Object.assign(result, { type: 'string', format: 'date-time' })
    else if (key === 'properties') result[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, documented(property as JsonSchema)]))
    else result[key] = key === 'enum' ? value : documented(value)
  }
  return result
}

/** Whether a value passes class-validator's `@IsDate()`. */
export const isValidDate = (value: unknown): boolean => value instanceof Date && !Number.isNaN(value.getTime())
