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

/**
 * Request values (a body, a query or a params object) that a compiled DTO schema accepted in
 * Fastify's validation step, with what accepted them. Weak: they go with their request.
 */
export const accepted = new WeakMap<object, Verdict>()

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
