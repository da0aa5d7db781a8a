import { converters, convertValue, type Conversion } from './dto-conversions.js'

/**
 * How class-transformer's plainToInstance treats one declared property of a compiled DTO: the
 * conversion it applies (`keep` when it applies none to primitives), and whether it copies an
 * array into a plain `[]` (it builds the array from `@Type()`'s reflected design type, and only
 * these make a plain array).
 */
export interface FieldPlan { to: Conversion, plainArrays: boolean }

const plainArrayTypes = new Set<unknown>([undefined, Array, Number, String, Boolean, Date, Object])

export function fieldPlan (to: Conversion | undefined, reflectedType: unknown): FieldPlan {
  return { to: to ?? 'keep', plainArrays: plainArrayTypes.has(reflectedType) }
}

/** The instance of `cls` built from `value`, or undefined when the builder does not cover it. */
export type InstanceBuilder = (value: object) => object | undefined

// A key class-transformer never assigns.
const skipped = (key: string): boolean => key === '__proto__' || key === 'constructor'

/**
 * What plainToInstance(cls, value) gives, without its per-call metadata lookups, for the values a
 * compiled check accepts in the common shape: every own key a declared property of the class,
 * holding a string, number, boolean, null or undefined, or an array of those. Such a value becomes `new cls()` with each key
 * assigned in order, converted as class-transformer converts it (an array copied item by item).
 * Any other value (an undeclared key, a nested object) gives undefined before the constructor
 * runs, and the caller asks class-transformer.
 */
export function instanceBuilder (cls: Function, fields: Map<string, FieldPlan>): InstanceBuilder {
  const names = [...fields.keys()]
  const plans = names.map((name) => fields.get(name)!)
  const converts = plans.map((plan) => converters[plan.to])
  const Class = cls as new () => Record<string, unknown>
  const indexOf = (key: string): number => {
    for (let i = 0; i < names.length; i++) if (names[i] === key) return i
    return -1
  }
  return (value) => {
    const record = value as Record<string, unknown>
    const keys = Object.keys(record)
    for (let k = 0; k < keys.length; k++) {
      if (skipped(keys[k])) continue
      const i = indexOf(keys[k])
      if (i === -1) return undefined
      const item = record[keys[k]]
      if (!simple(item) && (!Array.isArray(item) || !plans[i].plainArrays || !simpleItems(item))) return undefined
    }
    const instance = new Class()
    for (let k = 0; k < keys.length; k++) {
      if (skipped(keys[k])) continue
      instance[keys[k]] = convertValue(record[keys[k]], converts[indexOf(keys[k])])
    }
    return instance
  }
}

// What class-transformer passes through, or converts, as convertValue does.
function simple (item: unknown): boolean {
  if (item === null || item === undefined) return true
  const type = typeof item
  return type === 'string' || type === 'number' || type === 'boolean'
}

// A hole fails too: class-transformer's copy would close it up.
function simpleItems (items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!(i in items) || !simple(items[i])) return false
  return true
}
