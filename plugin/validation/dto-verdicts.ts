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

/**
 * How a ValidationPipe with `compile` has DTOs compiled, or why it cannot. `implicitConversion`
 * is class-transformer's `enableImplicitConversion`: properties converted by their design type.
 */
export type CompileSettings = { fingerprint: string, options: VerdictOptions, implicitConversion: boolean } | { reason: string }

export function compileSettings (validatorOptions: Record<string, unknown>, transformOptions: Record<string, unknown> | undefined): CompileSettings {
  // Implicit conversion is the one transform option compiled: the others rename, drop or expose properties.
  const transformKeys = transformOptions === undefined ? [] : Object.keys(transformOptions)
  const implicit = transformOptions?.enableImplicitConversion
  if (transformKeys.some((key) => key !== 'enableImplicitConversion') || (implicit !== undefined && typeof implicit !== 'boolean')) {
    return { reason: `the ValidationPipe has the transformOptions ${transformKeys.filter((key) => key !== 'enableImplicitConversion' || typeof implicit !== 'boolean').join(', ')}, which change what class-validator sees` }
  }
  const implicitConversion = implicit === true
  const unknown = Object.keys(validatorOptions).filter((key) => !messageKeys.has(key) && !(verdictKeys as readonly string[]).includes(key))
  if (unknown.length > 0) return { reason: `the ValidationPipe has the validator options ${unknown.join(', ')}` }
  const options = { forbidUnknownValues: true } as VerdictOptions
  for (const key of verdictKeys) if (validatorOptions[key] !== undefined) (options as any)[key] = validatorOptions[key]
  return { fingerprint: JSON.stringify([...verdictKeys.map((key) => options[key] ?? null), implicitConversion]), options, implicitConversion }
}

/** Per class reached by validation: the properties whitelisting keeps, and those validated as nested objects. */
export interface ClassPlan { allowed: Set<string>, nested: string[] }

/** What a compiled DTO schema tells the pipe about a value it accepted. */
export interface Verdict {
  cls: Function
  fingerprint: string
  plans: Map<Function, ClassPlan>
  /** plainToInstance for the accepted values it covers (undefined for the others). */
  build: (value: object) => object | undefined
}

/** The request parts a compiled DTO can stand for, as ValidationPipe's metadata names them. */
export type JudgedPart = 'body' | 'query' | 'param'

// The last value Fastify's validation step judged for each part, and its verdict. Nothing is
// written on the value (a mark costs a hidden-class change and memory per request, and frozen
// values take none): the pipe finds its value here when no other request's validation ran in
// between, which is the case unless something between the two awaits; otherwise it asks
// class-validator, which answers the same. The pipe takes the verdict once, and the slot lets
// go of the value.
class Judged {
  value: unknown = undefined
  verdict: Verdict | undefined = undefined
}
const judged: Record<JudgedPart, Judged> = { body: new Judged(), query: new Judged(), param: new Judged() }
const slots = Object.values(judged)

/**
 * Records Fastify's validation verdict on a request part: `verdict` when a compiled DTO schema
 * accepted `value`, undefined when it did not. The same object judged as another part loses
 * the verdict it had there.
 */
export function recordVerdict (part: JudgedPart, value: unknown, verdict: Verdict | undefined): void {
  const slot = judged[part]
  for (let i = 0; i < slots.length; i++) if (slots[i].value === value && slots[i] !== slot) slots[i].value = slots[i].verdict = undefined
  slot.value = value
  slot.verdict = verdict
}

/** What accepted `value` as `part` in this request's validation step, if a compiled DTO schema did; taken once. */
export function acceptedBy (part: string, value: unknown): Verdict | undefined {
  const slot = judged[part as JudgedPart]
  if (slot === undefined || slot.value !== value) return undefined
  const { verdict } = slot
  slot.value = slot.verdict = undefined
  return verdict
}

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
