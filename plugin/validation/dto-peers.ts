import type { Type } from '../../types/index.js'
import { ERR_MISSING_PEER } from '../util/errors.js'
import { optionalPeer } from '../util/peers.js'

/** What the DTO compiler reads from class-validator's and class-transformer's public metadata. */
export interface ValidationMetadata {
  type: string
  name?: string
  target: Function | string
  propertyName: string
  constraints?: unknown[]
  constraintCls?: Function
  each?: boolean
  validateIf?: unknown
}

interface ConstraintMetadata { name?: string, async?: boolean }

export interface TypeMetadata {
  typeFunction?: (options?: unknown) => unknown
  reflectedType?: unknown
  options?: { discriminator?: unknown }
}

interface ValidatorStorage {
  getTargetValidationMetadatas: (target: Function, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => ValidationMetadata[]
  groupByPropertyName: (metadatas: ValidationMetadata[]) => Record<string, ValidationMetadata[]>
  getTargetValidatorConstraints: (cls: Function) => ConstraintMetadata[]
}

interface TransformerStorage {
  findTypeMetadata: (target: Function, property: string) => TypeMetadata | undefined
  findTransformMetadatas: (target: Function, property: string, type: number) => unknown[]
  getExposedMetadatas: (target: Function) => unknown[]
  getExcludedMetadatas: (target: Function) => Array<{ propertyName?: string }>
  getStrategy: (target: Function) => string
}

export interface DtoPeers {
  validators: ValidatorStorage
  transformers: TransformerStorage
  plainToClass: number
  validateSync: (object: object, options: Record<string, unknown>) => Array<{ property: string, constraints?: Record<string, string> }>
  plainToInstance: (cls: Type, plain: unknown, options?: Record<string, unknown>) => any
  /** class-validator's own checks, so compiled formats and lengths judge as it does. */
  checks: {
    isEmail: (value: unknown) => boolean
    isUUID: (value: unknown, version?: unknown) => boolean
    isISO8601: (value: unknown) => boolean
    minLength: (value: unknown, min: number) => boolean
    maxLength: (value: unknown, max: number) => boolean
  }
  Ajv: new (options: Record<string, unknown>) => any
  /** ajv's code template tag, for keywords generated into the compiled validator. */
  _: (strings: TemplateStringsArray, ...values: unknown[]) => unknown
}

let peers: DtoPeers | undefined

/** Loads class-validator, class-transformer and ajv the first time a DTO is compiled. */
export function loadDtoPeers (): DtoPeers {
  if (peers) return peers
  const load = (name: string): any => optionalPeer(name, (cause) => new ERR_MISSING_PEER(`Compiling DTOs needs the optional peer dependencies class-validator and class-transformer, and ${name} could not be loaded. Install them: npm install class-validator class-transformer`, { cause }))
  const validator = load('class-validator')
  const transformer = load('class-transformer')
  // class-transformer keeps @Type/@Expose/@Exclude/@Transform here; it has no other public door to them.
  const storage = load('class-transformer/cjs/storage')
  const ajv = load('ajv')
  peers = {
    validators: validator.getMetadataStorage(),
    transformers: storage.defaultMetadataStorage,
    plainToClass: transformer.TransformationType.PLAIN_TO_CLASS,
    validateSync: validator.validateSync,
    plainToInstance: transformer.plainToInstance,
    checks: {
      isEmail: (value) => validator.isEmail(value),
      isUUID: (value, version) => validator.isUUID(value, version),
      isISO8601: (value) => validator.isISO8601(value),
      minLength: validator.minLength,
      maxLength: validator.maxLength
    },
    Ajv: ajv.default ?? ajv,
    _: ajv._
  }
  return peers
}
