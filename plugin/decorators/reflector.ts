import type { CreateDecoratorOptions, CustomDecorator, ReflectableDecorator, Type } from '../../types/index.js'
import { legacyDecorator } from '../util/legacy-decorator.js'
import { kBuiltinToken } from '../util/symbols.js'

type Target = Function | Type

/** Attaches `value` under `key` to a handler or a controller, for guards and interceptors to read. */
export function SetMetadata<K = string, V = unknown> (key: K, value: V): CustomDecorator<K> {
  return metadataDecorator(`@SetMetadata(${typeof key === 'string' ? JSON.stringify(key) : String(key)})`, key, value)
}

/** A decorator named `name` in messages that sets `value` under `key`, as SetMetadata does. */
export function metadataDecorator<K, V> (name: string, key: K, value: V): CustomDecorator<K> {
  const decorator = legacyDecorator(name, (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    Reflect.defineMetadata(key, value, descriptor ? descriptor.value : target)
  }) as CustomDecorator<K>
  decorator.KEY = key
  return decorator
}

// A decorator made by SetMetadata or createDecorator stands for its key.
function keyOf (key: unknown): unknown {
  return typeof key === 'function' && 'KEY' in key ? (key as { KEY: unknown }).KEY : key
}

/** Reads metadata set with `SetMetadata` from handlers and classes. */
export class Reflector {
  /** Makes a typed metadata decorator; an argument-less use stores `{}`. */
  static createDecorator<TParam, TTransformed = TParam> (options: CreateDecoratorOptions<TParam, TTransformed> = {}): ReflectableDecorator<TParam, TTransformed> {
    const key = options.key ?? Symbol('Reflector.createDecorator')
    const decorator = ((value?: TParam) => {
      const stored = options.transform ? options.transform(value as TParam) : value
      return SetMetadata(key, stored === undefined ? {} : stored)
    }) as ReflectableDecorator<TParam, TTransformed>
    decorator.KEY = key
    return decorator
  }

  get<T = any> (key: unknown, target: Target): T {
    return Reflect.getMetadata(keyOf(key), target)
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

// Injecting Reflector gives the application's instance, also when the class comes from the other build.
Object.defineProperty(Reflector, kBuiltinToken, { value: 'reflector' })

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
