import type { Type } from '../types/index.js'

type Target = Function | Type

export interface CustomDecorator<K = string> {
  (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void
  KEY: K
}

/** Attaches `value` under `key` to a handler or a controller, for guards and interceptors to read. */
export function SetMetadata<K = string, V = unknown> (key: K, value: V): CustomDecorator<K> {
  const decorator = ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    Reflect.defineMetadata(key, value, descriptor ? descriptor.value : target)
  }) as CustomDecorator<K>
  decorator.KEY = key
  return decorator
}

/** Reads metadata set with `SetMetadata` from handlers and classes. */
export class Reflector {
  get<T = any> (key: unknown, target: Target): T {
    return Reflect.getMetadata(key, target)
  }

  getAll<T extends unknown[] = any[]> (key: unknown, targets: Target[]): T {
    return (targets ?? []).map((target) => this.get(key, target)) as T
  }

  getAllAndOverride<T = any> (key: unknown, targets: Target[]): T {
    for (const target of targets ?? []) {
      const value = this.get(key, target)
      if (value !== undefined) return value
    }
    return undefined as T
  }

  getAllAndMerge<T extends unknown[] | object = any[]> (key: unknown, targets: Target[]): T {
    const values = this.getAll(key, targets).filter((value) => value !== undefined)
    if (values.length === 0) return [] as unknown as T
    if (values.length === 1) {
      const [only] = values
      return (typeof only === 'object' && only !== null ? only : [only]) as T
    }
    return values.reduce((merged, value) => {
      if (Array.isArray(merged)) return merged.concat(value)
      if (isPlainObject(merged) && isPlainObject(value)) return { ...merged, ...value }
      return [merged, value]
    }) as T
  }
}

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
