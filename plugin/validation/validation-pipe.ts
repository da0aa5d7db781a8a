import type { ArgumentMetadata, PipeTransform, Type, ValidationError, ValidationPipeOptions } from '../../types/index.js'
import { BadRequestException } from '../common/exceptions.js'
import { exceptionFor } from '../common/exceptions.js'
import { ERR_MISSING_PEER } from '../util/errors.js'
import { optionalPeer } from '../util/peers.js'
import { acceptedBy, compileSettings, stripUndeclared, type CompileSettings, type Verdict } from './dto-verdicts.js'
import { kDtoCompile, kValidateSync } from '../util/symbols.js'

interface Peers {
  validate: (object: object, options: Record<string, unknown>) => Promise<ValidationError[]>
  validateSync: (object: object, options: Record<string, unknown>) => ValidationError[]
  plainToInstance: (cls: Type, plain: unknown, options?: Record<string, unknown>) => any
  instanceToPlain: (object: unknown, options?: Record<string, unknown>) => unknown
}

const peerNames = ['class-validator', 'class-transformer'] as const

/**
 * The optional peers, loaded the first time a ValidationPipe is made. `names` only exists so
 * that a missing peer can be shown in tests.
 */
export function loadPeers (names: readonly [string, string] = peerNames): Peers {
  const [validator, transformer] = names.map((name) => optionalPeer(name, (cause) => new ERR_MISSING_PEER(`ValidationPipe needs the optional peer dependencies class-validator and class-transformer, and ${name} could not be loaded. Install them: npm install class-validator class-transformer`, { cause })))
  return { validate: validator.validate, validateSync: validator.validateSync, plainToInstance: transformer.plainToInstance, instanceToPlain: transformer.instanceToPlain }
}

const unvalidated = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date])

/** Whether ValidationPipe validates values of this design type (a class of the user's). */
export function isValidatedType (metatype: unknown): metatype is Type {
  return typeof metatype === 'function' && !unvalidated.has(metatype)
}
const validatorKeys = ['whitelist', 'forbidNonWhitelisted', 'skipMissingProperties', 'skipUndefinedProperties', 'skipNullProperties', 'forbidUnknownValues', 'stopAtFirstError', 'groups'] as const

/** Validates DTO classes with class-validator; 400 with every constraint message. */
export class ValidationPipe implements PipeTransform {
  readonly #options: ValidationPipeOptions
  readonly #validatorOptions: Record<string, unknown>
  readonly #peers: Peers
  /** With `compile`: how the router compiles this pipe's DTOs (read at registration). */
  readonly [kDtoCompile]?: CompileSettings
  readonly #fingerprint: string | undefined

  constructor (options: ValidationPipeOptions = {}) {
    this.#peers = loadPeers()
    this.#options = options
    const picked: Record<string, unknown> = { forbidUnknownValues: false }
    for (const key of validatorKeys) if (options[key] !== undefined) picked[key] = options[key]
    this.#validatorOptions = { ...picked, ...options.validatorOptions }
    if (options.compile) {
      const settings = this[kDtoCompile] = compileSettings(this.#validatorOptions, options.transformOptions)
      this.#fingerprint = 'fingerprint' in settings ? settings.fingerprint : undefined
    }
  }

  transform (value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata
    if (type !== 'custom' || this.#options.validateCustomDecorators === true) {
      // A value the route's compiled schema accepted in Fastify's validation step passes as it
      // would here. Compiled classes are all validated types, so this needs no lookup of its own.
      if (this.#fingerprint !== undefined) {
        const verdict = acceptedBy(type, value)
        if (verdict !== undefined && verdict.cls === metatype && verdict.fingerprint === this.#fingerprint) return this.#passed(value as object, metatype, verdict)
      }
      if (isValidatedType(metatype)) return this.#check(value, metadata, metatype)
    }
    return this.#options.transform ? transformPrimitive(value, metadata) : value
  }

  /** What #check hands on for a valid value, without validating it again. */
  #passed (value: object, metatype: Type, verdict: Verdict): unknown {
    if (!this.#options.transform && !this.#options.whitelist) return value
    // Built from the compiled plan where it covers the value, as class-transformer builds it.
    const entity = verdict.build(value) ?? this.#instance(value, metatype)
    if (this.#validatorOptions.whitelist) stripUndeclared(entity, verdict.plans)
    return this.#options.transform ? entity : this.#peers.instanceToPlain(entity, this.#options.transformOptions)
  }

  // Promise callbacks rather than an async function: one promise turn less per request.
  #check (value: unknown, metadata: ArgumentMetadata, metatype: Type): Promise<unknown> {
    // A DTO describes an object. An array, a string, a number, a boolean or null is refused:
    // validating a stand-in instead would pass it on unvalidated whenever every field is optional.
    if (!isObjectOrNothing(value)) return this.#refuse(value, metadata, metatype)
    let entity: any
    let pending: Promise<ValidationError[]>
    try {
      // Nothing given validates as {}, so required fields report; the handler then gets nothing.
      entity = this.#instance(value ?? {}, metatype)
      pending = this.#peers.validate(entity, this.#validatorOptions)
    } catch (error) {
      return Promise.reject(deepNesting(error))
    }
    return pending.then((errors) => {
      if (errors.length > 0) throw this.#fail(errors)
      if (this.#options.transform) return entity
      if (value === undefined) return value
      return this.#options.whitelist ? this.#peers.instanceToPlain(entity, this.#options.transformOptions) : value
    }, rethrowDeepNesting)
  }

  async #refuse (value: unknown, metadata: ArgumentMetadata, metatype: Type): Promise<never> {
    throw this.#fail([this.#notAnObject(value, metadata), ...await this.#peers.validate(Object.create(metatype.prototype), this.#validatorOptions)])
  }

  /** #check's verdict, synchronously: the exception to throw, or undefined when the value passes. */
  [kValidateSync] (value: unknown, metadata: ArgumentMetadata & { metatype: Type }): unknown {
    const { metatype } = metadata
    try {
      const errors = isObjectOrNothing(value)
        ? this.#peers.validateSync(this.#instance(value ?? {}, metatype), this.#validatorOptions)
        : [this.#notAnObject(value, metadata), ...this.#peers.validateSync(Object.create(metatype.prototype), this.#validatorOptions)]
      return errors.length > 0 ? this.#fail(errors) : undefined
    } catch (error) {
      return deepNesting(error)
    }
  }

  #instance (value: unknown, metatype: Type): any {
    try {
      return this.#peers.plainToInstance(metatype, value, this.#options.transformOptions)
    } catch (error) {
      throw deepNesting(error)
    }
  }

  /**
   * The error for a value that is not an object. For a non-empty array under
   * forbidNonWhitelisted it reads as NestJS's first one (`property 0 should not exist`);
   * one error whatever the length, so a long array cannot inflate the answer.
   */
  #notAnObject (value: unknown, metadata: ArgumentMetadata): ValidationError {
    const { whitelist, forbidNonWhitelisted } = this.#validatorOptions
    if (Array.isArray(value) && value.length > 0 && whitelist === true && forbidNonWhitelisted === true) {
      return { property: '0', value: value[0], constraints: { whitelistValidation: 'property 0 should not exist' }, children: [] }
    }
    const name = metadata.data ?? (metadata.type === 'custom' ? 'value' : metadata.type)
    return { property: metadata.data ?? '', value, constraints: { isObject: `${name} must be an object` }, children: [] }
  }

  #fail (errors: ValidationError[]): unknown {
    if (this.#options.exceptionFactory) return this.#options.exceptionFactory(errors)
    const status = this.#options.errorHttpStatusCode ?? 400
    if (this.#options.disableErrorMessages) return exceptionFor(status)
    return exceptionFor(status, withPaths(errors).flatMap((error) => Object.values(error.constraints ?? {})))
  }
}

/**
 * Nested errors as a flat list whose messages carry their path (`inner.n must be ...`).
 * As in NestJS, an error with children reports through them only.
 */
function withPaths (errors: ValidationError[], parent?: string): ValidationError[] {
  return errors.flatMap((error) => {
    if (parent === undefined && !error.children?.length) return [error]
    if (parent !== undefined) {
      const path = `${parent}.${error.property}`
      const constraints = Object.fromEntries(Object.entries(error.constraints ?? {}).map(([key, message]) => [key, `${parent}.${message}`]))
      return [...(error.children?.length ? withPaths(error.children, path) : []), { ...error, constraints }]
    }
    return withPaths(error.children!, error.property)
  })
}

const isObjectOrNothing = (value: unknown): boolean => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))

// class-transformer and class-validator recurse per level: a hostile depth overflows the stack.
function deepNesting (error: unknown): unknown {
  return error instanceof RangeError ? new BadRequestException('Request data is nested too deeply') : error
}

const rethrowDeepNesting = (error: unknown): never => { throw deepNesting(error) }

function transformPrimitive (value: unknown, metadata: ArgumentMetadata): unknown {
  if (metadata.data === undefined || (metadata.type !== 'param' && metadata.type !== 'query') || value === undefined) return value
  if (metadata.metatype === Number) return +(value as number)
  if (metadata.metatype === Boolean) return value === true || value === 'true'
  if (metadata.metatype === String) return String(value)
  return value
}
