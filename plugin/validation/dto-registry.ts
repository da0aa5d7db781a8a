import { isDeepStrictEqual } from 'node:util'
import type { FastifyBaseLogger } from 'fastify'
import type { Type } from '../../types/index.js'
import { loadDtoPeers, type DtoPeers } from './dto-peers.js'
import { compileDto, NotCompilable, uuidFormat, type JsonSchema } from './dto-schema.js'
import { instanceBuilder } from './dto-instances.js'
import { convertingCheck, documented, isValidDate } from './dto-conversions.js'
import { compileSettings, recordVerdict, type CompileSettings, type JudgedPart, type Verdict } from './dto-verdicts.js'
import { ValidationPipe, isValidatedType } from './validation-pipe.js'
import { asError } from '../util/thrown.js'
import { kValidateSync } from '../util/symbols.js'

/** One DTO compiled with one set of options. */
export interface DtoVariant {
  cls: Function
  /** The shared schema's `$id` (the class name, suffixed when another schema took it). */
  id: string
  /** The schema without `$id`, for the parts Fastify reads inline (querystring, params), as the request is documented. */
  schema: JsonSchema
  verdict: Verdict
  /** Whether class-validator accepts the value, converted first as class-transformer converts it. */
  check: (data: unknown) => boolean
}

type Validator = (data: unknown) => true | { error: Error }

// What a `new ValidationPipe()` validates with: the judge of DTOs given in @RouteSchema.
const defaultSettings = compileSettings({ forbidUnknownValues: false }, undefined)

const isRecord = (data: unknown): data is object => data !== null && typeof data === 'object' && !Array.isArray(data)

// ajv as class-validator judges: no coercion, defaults or removal; finite numbers only; lengths,
// formats and patterns checked as class-validator checks them.
function createAjv (peers: DtoPeers): any {
  const { checks } = peers
  const ajv = new peers.Ajv({
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strictNumbers: true,
    unicodeRegExp: false,
    strict: false,
    addUsedSchema: false
  })
  ajv.addFormat('email', { type: 'string', validate: checks.isEmail })
  ajv.addFormat('date-time', { type: 'string', validate: checks.isISO8601 })
  for (const version of [undefined, '1', '2', '3', '4', '5', '6', '7', '8', 'nil', 'max', 'loose']) {
    ajv.addFormat(uuidFormat(version), { type: 'string', validate: (value: string) => checks.isUUID(value, version) })
  }
  // validator.js counts a character and its variation selector as one; JSON Schema counts both.
  // It never counts more than the UTF-16 length, and counts exactly that without surrogates or
  // variation selectors: only other strings need its own count.
  const minLength = (min: number, data: string): boolean => data.length >= min && (plain(data) || checks.minLength(data, min))
  const maxLength = (max: number, data: string): boolean => data.length <= max || (!plain(data) && checks.maxLength(data, max))
  for (const [keyword, check] of [['minLength', minLength], ['maxLength', maxLength]] as const) {
    ajv.removeKeyword(keyword)
    // Generated as a plain call: a `validate` keyword would build a context object on every call.
    ajv.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'number',
      code: (cxt: any) => cxt.fail(peers._`!${cxt.gen.scopeValue('func', { ref: check })}(${cxt.schema}, ${cxt.data})`)
    })
  }
  // A property class-transformer converts to a Date is checked after conversion, as @IsDate() checks it.
  ajv.addKeyword({
    keyword: 'isDate',
    schemaType: 'boolean',
    code: (cxt: any) => cxt.fail(peers._`!${cxt.gen.scopeValue('func', { ref: isValidDate })}(${cxt.data})`)
  })
  return ajv
}

/** Whether a string has no surrogate and no variation selector (a loop: short strings cost less than a RegExp call). */
function plain (data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i)
    if (code >= 0xD800 && (code <= 0xDFFF || code === 0xFE0E || code === 0xFE0F)) return false
  }
  return true
}

/**
 * An application's compiled DTOs: each class compiled once per set of options, its schema added
 * once as a shared schema (`$id` = class name), and the validators Fastify runs for routes.
 */
export class DtoSchemas {
  readonly #log: FastifyBaseLogger
  readonly #taken: (id: string) => boolean
  readonly #variants = new Map<Function, Map<string, DtoVariant | string>>()
  readonly #shared = new Map<string, { cls: Function, schema: JsonSchema }>()
  #ajv: any
  #judge: ValidationPipe | undefined

  constructor (log: FastifyBaseLogger, taken: (id: string) => boolean) {
    this.#log = log
    this.#taken = taken
  }

  /**
   * The DTO compiled with a compiling ValidationPipe's options (a plain `new ValidationPipe()`'s
   * by default), or why it keeps class-validator (logged once, at debug level).
   */
  variant (cls: Function, settings: CompileSettings = defaultSettings): DtoVariant | string {
    let variants = this.#variants.get(cls)
    if (variants === undefined) this.#variants.set(cls, variants = new Map())
    const key = 'reason' in settings ? settings.reason : settings.fingerprint
    let variant = variants.get(key)
    if (variant !== undefined) return variant
    try {
      if ('reason' in settings) throw new NotCompilable(settings.reason)
      // ValidationPipe leaves these alone: a mark for one must never make it validate them.
      if (!isValidatedType(cls)) throw new NotCompilable(`${cls.name} is a type ValidationPipe does not validate`)
      const { schema, plans, conversions, fields } = compileDto(cls, settings.options, settings.implicitConversion)
      this.#ajv ??= createAjv(loadDtoPeers())
      const check = this.#ajv.compile(schema)
      const shown = conversions.length === 0 ? schema : documented(schema)
      variant = {
        cls,
        id: this.#name(cls, shown),
        schema: shown,
        verdict: { cls, fingerprint: settings.fingerprint, plans, build: instanceBuilder(cls, fields) },
        check: conversions.length === 0 ? check : convertingCheck(check, conversions)
      }
    } catch (error) {
      if (!(error instanceof NotCompilable)) throw error
      variant = this.notCompiled(cls, error.message)
    }
    variants.set(key, variant)
    return variant
  }

  /** Says at debug level which DTO keeps class-validator at run time, and why. */
  notCompiled (cls: Function, reason: string): string {
    this.#log.debug({ dto: cls.name, reason }, `DTO ${cls.name} is not compiled to a JSON schema and keeps class-validator at run time: ${reason}`)
    return reason
  }

  // The class name, unless an app schema or another class (or another form of this one) has it.
  #name (cls: Function, schema: JsonSchema): string {
    const base = cls.name || 'Dto'
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}_${n}`
      const owner = this.#shared.get(id)
      if (owner === undefined && !this.#taken(id)) {
        this.#shared.set(id, { cls, schema })
        return id
      }
      if (owner?.cls === cls && isDeepStrictEqual(owner.schema, schema)) return id
    }
  }

  /** The shared schemas to add to the application's context, each once. */
  sharedSchemas (): JsonSchema[] {
    return [...this.#shared].map(([id, { schema }]) => ({ $id: id, ...schema }))
  }

  /**
   * For a parameter's compiling pipe: records each value's verdict for the pipe and lets every
   * value through, so the pipe gives class-validator's answer at its turn, as without compiling.
   */
  deferred (variant: DtoVariant, part: JudgedPart): Validator {
    const { check, verdict } = variant
    return (data) => {
      recordVerdict(part, data, isRecord(data) && check(data) ? verdict : undefined)
      return true
    }
  }

  /**
   * For a DTO in @RouteSchema: answers in Fastify's validation step with ValidationPipe's 400.
   * Fastify gives null for a missing body, which is refused as not an object, as its own schemas do.
   */
  strict (variant: DtoVariant, type: JudgedPart): Validator {
    const { check, verdict, cls } = variant
    this.#judge ??= new ValidationPipe()
    const judge = this.#judge
    const metadata = { type, metatype: cls as Type }
    return (data) => {
      if (isRecord(data) && check(data)) {
        recordVerdict(type, data, verdict)
        return true
      }
      const exception = judge[kValidateSync](data, metadata)
      return exception === undefined ? true : { error: asError(exception) }
    }
  }
}
