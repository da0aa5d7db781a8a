import type { ParseArrayOptions, ParsePipeOptions, PipeTransform } from '../../types/index.js'
import { exceptionFor } from '../common/exceptions.js'

const isNil = (value: unknown): value is null | undefined => value === null || value === undefined

/** What the parse pipes share: `optional` lets `undefined` and `null` through, bad input fails alike. */
export abstract class ParsePipe<R, O extends ParsePipeOptions = ParsePipeOptions> implements PipeTransform<unknown, R> {
  constructor (protected readonly options: Partial<O> = {}) {}

  transform (value: unknown): R {
    // Typed as the parsed value, as NestJS types it: a handler opting into `optional` expects nil too.
    if (isNil(value) && this.options.optional) return value as unknown as R
    return this.parse(value)
  }

  protected abstract parse (value: unknown): R

  protected fail (message: string): unknown {
    if (this.options.exceptionFactory) return this.options.exceptionFactory(message)
    return exceptionFor(this.options.errorHttpStatusCode ?? 400, message)
  }
}

/** Parses an integer string (`/^-?\d+$/`) into a number. */
export class ParseIntPipe extends ParsePipe<number> {
  protected parse (value: unknown): number {
    if (typeof value === 'number' && Number.isInteger(value)) return value
    // Digits past what a double holds parse to Infinity: not a number either.
    const parsed = typeof value === 'string' && /^-?\d+$/.test(value) ? parseInt(value, 10) : NaN
    if (Number.isFinite(parsed)) return parsed
    throw this.fail('Validation failed (numeric string is expected)')
  }
}

/** Parses a float string (what `parseFloat` reads, when the whole string is numeric). */
export class ParseFloatPipe extends ParsePipe<number> {
  protected parse (value: unknown): number {
    const parsed = (typeof value === 'string' || typeof value === 'number') && isFinite(value as number) ? parseFloat(value as string) : NaN
    if (Number.isFinite(parsed)) return parsed
    throw this.fail('Validation failed (numeric string is expected)')
  }
}

/** Parses 'true' / 'false' (or booleans). */
export class ParseBoolPipe extends ParsePipe<boolean> {
  protected parse (value: unknown): boolean {
    if (value === true || value === 'true') return true
    if (value === false || value === 'false') return false
    throw this.fail('Validation failed (boolean string is expected)')
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
export class ParseUUIDPipe extends ParsePipe<string> {
  readonly #pattern: RegExp
  readonly #message: string
  constructor (options: ParsePipeOptions & { version?: '3' | '4' | '5' | '7' } = {}) {
    super(options)
    this.#pattern = uuidPatterns[options.version ?? 'all']
    // Worded as NestJS words it, space included.
    this.#message = `Validation failed (uuid${options.version ? ` v ${options.version}` : ''} is expected)`
  }

  protected parse (value: unknown): string {
    if (typeof value !== 'string') throw this.fail('The value passed as UUID is not a string')
    if (this.#pattern.test(value)) return value
    throw this.fail(this.#message)
  }
}

/** Accepts one of an enum's values. */
export class ParseEnumPipe<T extends Record<string, string | number> = any> extends ParsePipe<T[keyof T]> {
  readonly #values: Set<unknown>
  constructor (enumType: T, options: ParsePipeOptions = {}) {
    super(options)
    if (enumType === null || typeof enumType !== 'object') throw new TypeError('ParseEnumPipe needs an enum object, e.g. new ParseEnumPipe(Color).')
    // Numeric TypeScript enums map values back to names; keep the values only.
    this.#values = new Set(Object.keys(enumType).filter((key) => !/^\d+$/.test(key)).map((key) => enumType[key]))
  }

  protected parse (value: unknown): T[keyof T] {
    if (this.#values.has(value)) return value as T[keyof T]
    if (typeof value === 'string' && this.#values.has(Number(value)) && value.trim() !== '') return Number(value) as T[keyof T]
    throw this.fail('Validation failed (enum string is expected)')
  }
}

/** Splits a delimited string (or takes an array) into an array, converting items if asked. */
export class ParseArrayPipe extends ParsePipe<unknown[], ParseArrayOptions> {
  constructor (options: ParseArrayOptions = {}) {
    super(options)
    const { items } = options
    if (items !== undefined && items !== Number && items !== String && items !== Boolean) {
      throw new TypeError('ParseArrayPipe option "items" must be Number, String or Boolean; validate arrays of objects with a DTO and ValidationPipe.')
    }
  }

  protected parse (value: unknown): unknown[] {
    let items: unknown[]
    if (Array.isArray(value)) items = value
    else if (typeof value === 'string' && value !== '') items = value.trim().split(this.options.separator ?? ',')
    else throw this.fail('Validation failed (parsable array expected)')
    const convert = this.options.items
    if (convert === undefined) return items
    if (convert === String) return items.map((item) => typeof item === 'string' ? item : String(item))
    return items.map((item, index) => {
      // '1' and 'true' are read as JSON first, as NestJS does.
      if (typeof item === 'string') { try { item = JSON.parse(item) } catch {} }
      if (convert === Number) {
        const number = item !== null && item !== '' ? +(item as number) : NaN
        if (!Number.isFinite(number)) throw this.fail(`[${index}] item must be a number`)
        return number
      }
      if (typeof item !== 'boolean') throw this.fail(`[${index}] item must be a boolean value`)
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
