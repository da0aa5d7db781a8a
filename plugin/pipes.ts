import type { PipeTransform } from '../types/index.js'
import { exceptionFor } from './exception-for.js'

export interface ParsePipeOptions {
  /** The status of the error thrown on bad input (default 400). */
  errorHttpStatusCode?: number
  /** Makes the error from a message; replaces the built-in one. */
  exceptionFactory?: (message: string) => unknown
  /** `undefined` and `null` pass through unchanged. */
  optional?: boolean
}

function failure (options: ParsePipeOptions, message: string): unknown {
  if (options.exceptionFactory) return options.exceptionFactory(message)
  return exceptionFor(options.errorHttpStatusCode ?? 400, message)
}

const isNil = (value: unknown): value is null | undefined => value === null || value === undefined

/** Parses an integer string (`/^-?\d+$/`) into a number. */
export class ParseIntPipe implements PipeTransform<unknown, number> {
  constructor (private readonly options: ParsePipeOptions = {}) {}
  transform (value: unknown): number {
    if (isNil(value) && this.options.optional) return value as never
    if (typeof value === 'number' && Number.isInteger(value)) return value
    // Digits past what a double holds parse to Infinity: not a number either.
    const parsed = typeof value === 'string' && /^-?\d+$/.test(value) ? parseInt(value, 10) : NaN
    if (Number.isFinite(parsed)) return parsed
    throw failure(this.options, 'Validation failed (numeric string is expected)')
  }
}

/** Parses a float string (what `parseFloat` reads, when the whole string is numeric). */
export class ParseFloatPipe implements PipeTransform<unknown, number> {
  constructor (private readonly options: ParsePipeOptions = {}) {}
  transform (value: unknown): number {
    if (isNil(value) && this.options.optional) return value as never
    const parsed = (typeof value === 'string' || typeof value === 'number') && isFinite(value as number) ? parseFloat(value as string) : NaN
    if (Number.isFinite(parsed)) return parsed
    throw failure(this.options, 'Validation failed (numeric string is expected)')
  }
}

/** Parses 'true' / 'false' (or booleans). */
export class ParseBoolPipe implements PipeTransform<unknown, boolean> {
  constructor (private readonly options: ParsePipeOptions = {}) {}
  transform (value: unknown): boolean {
    if (isNil(value) && this.options.optional) return value as never
    if (value === true || value === 'true') return true
    if (value === false || value === 'false') return false
    throw failure(this.options, 'Validation failed (boolean string is expected)')
  }
}

const uuidPatterns: Record<string, RegExp> = {
  3: /^[0-9A-F]{8}-[0-9A-F]{4}-3[0-9A-F]{3}-[0-9A-F]{4}-[0-9A-F]{12}$/i,
  4: /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/i,
  5: /^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/i,
  7: /^[0-9A-F]{8}-[0-9A-F]{4}-7[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/i,
  all: /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i
}

/** Accepts a UUID string (any version, or the one given). */
export class ParseUUIDPipe implements PipeTransform<unknown, string> {
  readonly #pattern: RegExp
  readonly #message: string
  constructor (private readonly options: ParsePipeOptions & { version?: '3' | '4' | '5' | '7' } = {}) {
    this.#pattern = uuidPatterns[options.version ?? 'all']
    // Worded as NestJS words it, space included.
    this.#message = `Validation failed (uuid${options.version ? ` v ${options.version}` : ''} is expected)`
  }

  transform (value: unknown): string {
    if (isNil(value) && this.options.optional) return value as never
    if (typeof value !== 'string') throw failure(this.options, 'The value passed as UUID is not a string')
    if (this.#pattern.test(value)) return value
    throw failure(this.options, this.#message)
  }
}

/** Accepts one of an enum's values. */
export class ParseEnumPipe<T extends Record<string, string | number> = any> implements PipeTransform<unknown, T[keyof T]> {
  readonly #values: Set<unknown>
  constructor (enumType: T, private readonly options: ParsePipeOptions = {}) {
    if (enumType === null || typeof enumType !== 'object') throw new TypeError('ParseEnumPipe needs an enum object, e.g. new ParseEnumPipe(Color).')
    // Numeric TypeScript enums map values back to names; keep the values only.
    this.#values = new Set(Object.keys(enumType).filter((key) => !/^\d+$/.test(key)).map((key) => enumType[key]))
  }

  transform (value: unknown): T[keyof T] {
    if (isNil(value) && this.options.optional) return value as never
    if (this.#values.has(value)) return value as T[keyof T]
    if (typeof value === 'string' && this.#values.has(Number(value)) && value.trim() !== '') return Number(value) as T[keyof T]
    throw failure(this.options, 'Validation failed (enum string is expected)')
  }
}

export interface ParseArrayOptions extends ParsePipeOptions {
  /** Separator of a string value (default ','). */
  separator?: string
  /** Converts each item: Number, String or Boolean. */
  items?: NumberConstructor | StringConstructor | BooleanConstructor
}

/** Splits a delimited string (or takes an array) into an array, converting items if asked. */
export class ParseArrayPipe implements PipeTransform<unknown, unknown[]> {
  constructor (private readonly options: ParseArrayOptions = {}) {
    const { items } = options
    if (items !== undefined && items !== Number && items !== String && items !== Boolean) {
      throw new TypeError('ParseArrayPipe option "items" must be Number, String or Boolean; validate arrays of objects with a DTO and ValidationPipe.')
    }
  }

  transform (value: unknown): unknown[] {
    if (isNil(value) && this.options.optional) return value as never
    let items: unknown[]
    if (Array.isArray(value)) items = value
    else if (typeof value === 'string' && value !== '') items = value.trim().split(this.options.separator ?? ',')
    else throw failure(this.options, 'Validation failed (parsable array expected)')
    const convert = this.options.items
    if (convert === undefined) return items
    if (convert === String) return items.map((item) => typeof item === 'string' ? item : String(item))
    return items.map((item, index) => {
      // '1' and 'true' are read as JSON first, as NestJS does.
      if (typeof item === 'string') { try { item = JSON.parse(item) } catch {} }
      if (convert === Number) {
        const number = item !== null && item !== '' ? +(item as number) : NaN
        if (!Number.isFinite(number)) throw failure(this.options, `[${index}] item must be a number`)
        return number
      }
      if (typeof item !== 'boolean') throw failure(this.options, `[${index}] item must be a boolean value`)
      return item
    })
  }
}

/** Substitutes a default for `undefined`, `null` and `NaN`. */
export class DefaultValuePipe<T = unknown> implements PipeTransform<unknown, T> {
  constructor (private readonly defaultValue: T) {}
  transform (value: unknown): T {
    if (isNil(value) || (typeof value === 'number' && Number.isNaN(value))) return this.defaultValue
    return value as T
  }
}
