/**
 * The class-validator options that decide whether a value passes (the others only shape the
 * errors). `forbidUnknownValues` is given explicitly: class-validator's own default is true.
 */
export interface VerdictOptions {
  whitelist?: boolean
  forbidNonWhitelisted?: boolean
  forbidUnknownValues: boolean
  skipMissingProperties?: boolean
  skipNullProperties?: boolean
  skipUndefinedProperties?: boolean
  groups?: string[]
  always?: boolean
  strictGroups?: boolean
}

const verdictKeys = ['whitelist', 'forbidNonWhitelisted', 'forbidUnknownValues', 'skipMissingProperties', 'skipNullProperties', 'skipUndefinedProperties', 'groups', 'always', 'strictGroups'] as const
// Options that change only what the errors say.
const messageKeys = new Set(['stopAtFirstError', 'dismissDefaultMessages', 'validationError', 'enableDebugMessages'])

/** How a ValidationPipe with `compile` has DTOs compiled, or why it cannot. */
export type CompileSettings = { fingerprint: string, options: VerdictOptions } | { reason: string }

export function compileSettings (validatorOptions: Record<string, unknown>, transformOptions: Record<string, unknown> | undefined): CompileSettings {
  if (transformOptions !== undefined && Object.keys(transformOptions).length > 0) {
    return { reason: 'the ValidationPipe has transformOptions, which change what class-validator sees' }
  }
  const unknown = Object.keys(validatorOptions).filter((key) => !messageKeys.has(key) && !(verdictKeys as readonly string[]).includes(key))
  if (unknown.length > 0) return { reason: `the ValidationPipe has the validator options ${unknown.join(', ')}` }
  const options = { forbidUnknownValues: true } as VerdictOptions
  for (const key of verdictKeys) if (validatorOptions[key] !== undefined) (options as any)[key] = validatorOptions[key]
  return { fingerprint: JSON.stringify(verdictKeys.map((key) => options[key] ?? null)), options }
}

/** Per class reached by validation: the properties whitelisting keeps, and those validated as nested objects. */
export interface ClassPlan { allowed: Set<string>, nested: string[] }

/** A compiled DTO's mark on a value its schema accepted. */
export interface Verdict { cls: Function, fingerprint: string, plans: Map<Function, ClassPlan> }

// The mark rides on the accepted value itself, in a private field: no key, symbol or property
// that user code, class-transformer, JSON or deep equality could see, and far cheaper per
// request than a WeakMap entry (V8 tracks each young key of a WeakMap in a remembered set).
// A class returning the object it is given from its constructor lets a subclass add its
// private field to that object.
class Host {
  constructor (value: object) { return value }
}

class AcceptedMark extends Host {
  #verdict: Verdict | undefined

  private constructor (value: object, verdict: Verdict) {
    super(value)
    this.#verdict = verdict
  }

  static set (value: object, verdict: Verdict | undefined): void {
    if (#verdict in value) {
      value.#verdict = verdict
      return
    }
    // Newer engines refuse new private fields on non-extensible objects: such a value is never
    // marked, on every engine, and goes to class-validator, which answers the same.
    if (verdict === undefined || !Object.isExtensible(value)) return
    // eslint-disable-next-line no-new
    new AcceptedMark(value, verdict)
  }

  static get (value: object): Verdict | undefined {
    return #verdict in value ? value.#verdict : undefined
  }
}

/**
 * Marks a request value (a body, a query or a params object) as accepted by a compiled DTO
 * schema in Fastify's validation step, or (`undefined`) as not accepted: a value seen again,
 * changed since, loses its earlier mark.
 */
export const markAccepted = (value: object, verdict: Verdict | undefined): void => AcceptedMark.set(value, verdict)

/** What accepted `value` in Fastify's validation step, if a compiled DTO schema did. */
export const acceptedBy = (value: object): Verdict | undefined => AcceptedMark.get(value)

/** Deletes from an instance what class-validator's whitelist deletes from it, nested objects included. */
export function stripUndeclared (object: object, plans: Map<Function, ClassPlan>): void {
  // class-validator reads the class of each object it walks into; one it has no rules for keeps nothing.
  const plan = plans.get(object.constructor) ?? { allowed: new Set<string>(), nested: [] }
  for (const key of Object.keys(object)) if (!plan.allowed.has(key)) delete (object as Record<string, unknown>)[key]
  for (const property of plan.nested) stripNested((object as Record<string, unknown>)[property], plans)
}

function stripNested (value: unknown, plans: Map<Function, ClassPlan>): void {
  if (Array.isArray(value)) for (const item of value) stripNested(item, plans)
  else if (value instanceof Object) stripUndeclared(value, plans)
}
