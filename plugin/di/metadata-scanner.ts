import { kBuiltinToken } from '../util/symbols.js'

/**
 * Lists the methods of a prototype and of its bases, as NestJS's MetadataScanner does: own
 * names first, a name once (the nearest one), no constructor, accessors left out.
 */
export class MetadataScanner {
  readonly #names = new Map<object, string[]>()

  /** The method names of `prototype` and its bases up to Object.prototype; kept per prototype. */
  getAllMethodNames (prototype: object | null | undefined): string[] {
    if (prototype === null || prototype === undefined) return []
    let names = this.#names.get(prototype)
    if (names === undefined) this.#names.set(prototype, names = methodNames(prototype))
    return names
  }

  /** What `callback` returns for each method name of `prototype`, `null` and `undefined` left out. */
  scanFromPrototype<T extends object, R = any> (_instance: T, prototype: object | null | undefined, callback: (name: string) => R): R[] {
    if (prototype === null || prototype === undefined) return []
    const results: R[] = []
    const names = methodNames(prototype)
    for (let i = 0; i < names.length; i++) {
      const result = callback(names[i])
      if (result !== null && result !== undefined) results.push(result)
    }
    return results
  }
}

// The container gives one per application, in any module, for this class of either build.
Object.defineProperty(MetadataScanner, kBuiltinToken, { value: 'metadataScanner' })

function methodNames (prototype: object): string[] {
  const seen = new Set<string>()
  const names: string[] = []
  for (let current: object | null = prototype; current !== null && current !== Object.prototype; current = Reflect.getPrototypeOf(current)) {
    const own = Object.getOwnPropertyNames(current)
    for (let i = 0; i < own.length; i++) {
      const name = own[i]
      if (seen.has(name)) continue
      seen.add(name)
      const descriptor = Object.getOwnPropertyDescriptor(current, name)!
      if (name === 'constructor' || descriptor.get !== undefined || descriptor.set !== undefined || typeof descriptor.value !== 'function') continue
      names.push(name)
    }
  }
  return names
}
