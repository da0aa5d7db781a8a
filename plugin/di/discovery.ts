import { randomUUID } from 'node:crypto'
import type { DiscoverableDecorator, DiscoveryOptions, InstanceWrapper, ModuleWrapper } from '../../types/index.js'
import { Module } from '../decorators/module.js'
import { kBuiltinToken } from '../util/symbols.js'
import { legacyDecorator } from '../util/legacy-decorator.js'
import type { ModulesContainer } from './modules-container.js'

// The keys of the discoverable decorators applied to each class (to the class, not a method).
const marked = new WeakMap<Function, Set<string>>()

/** Whether a discoverable decorator of `key` (made by either package's createDecorator) was applied to `cls` itself. */
export type DiscoverableKeys = (cls: Function, key: string) => boolean

const ownKeys: DiscoverableKeys = (cls, key) => marked.get(cls)?.has(key) === true

/**
 * Finds the application's providers and controllers, as NestJS's DiscoveryService does: every
 * module's, some modules', or those a decorator of createDecorator() marks. Injected in any
 * module (importing DiscoveryModule is accepted, not needed).
 */
export class DiscoveryService {
  readonly #modules: ModulesContainer
  readonly #keys: DiscoverableKeys

  /** Made by the container, over the application's ModulesContainer. */
  constructor (modules: ModulesContainer, foreignKeys?: DiscoverableKeys) {
    this.#modules = modules
    this.#keys = foreignKeys === undefined ? ownKeys : (cls, key) => ownKeys(cls, key) || foreignKeys(cls, key)
  }

  /**
   * A decorator that stores its argument (`{}` without one) under its `KEY` on a class or a
   * method; on a class it also marks the class for `getProviders({ metadataKey: KEY })`.
   */
  static createDecorator<T> (): DiscoverableDecorator<T> {
    const key = `fdp.discoverable.${randomUUID()}`
    const decorator = ((options?: T) => legacyDecorator('a decorator of DiscoveryService.createDecorator()', (target: object, _property?: string | symbol, descriptor?: PropertyDescriptor) => {
      const value = options ?? {}
      if (descriptor === undefined) {
        let keys = marked.get(target as Function)
        if (keys === undefined) marked.set(target as Function, keys = new Set())
        keys.add(key)
        Reflect.defineMetadata(key, value, target)
      } else Reflect.defineMetadata(key, value, descriptor.value)
    })) as DiscoverableDecorator<T>
    decorator.KEY = key
    return decorator
  }

  /** The providers of every module (each module's class first), of `include`'s modules, or those `metadataKey` marks. */
  getProviders (options: DiscoveryOptions = {}, modules: ModuleWrapper[] = this.#select(options)): InstanceWrapper[] {
    return this.#collect(options, modules, 'providers')
  }

  /** The controllers, as getProviders() gives the providers. */
  getControllers (options: DiscoveryOptions = {}, modules: ModuleWrapper[] = this.#select(options)): InstanceWrapper[] {
    return this.#collect(options, modules, 'controllers')
  }

  /** What `decorator` stored on the wrapper's class, or on its method `methodKey`. */
  getMetadataByDecorator<D extends DiscoverableDecorator<any>> (decorator: D, wrapper: InstanceWrapper, methodKey?: string): (D extends DiscoverableDecorator<infer T> ? T : never) | undefined {
    if (methodKey) return Reflect.getMetadata(decorator.KEY, wrapper.instance[methodKey])
    return Reflect.getMetadata(decorator.KEY, classOf(wrapper) as object)
  }

  #select (options: DiscoveryOptions): ModuleWrapper[] {
    const all = [...this.#modules.values()]
    const include = options.include
    return include === undefined ? all : all.filter((module) => include.includes(module.metatype))
  }

  #collect (options: DiscoveryOptions, modules: ModuleWrapper[], kind: 'providers' | 'controllers'): InstanceWrapper[] {
    const found: InstanceWrapper[] = []
    // As in NestJS, a metadata key looks in every module, whatever `include` says.
    const key = 'metadataKey' in options ? options.metadataKey : undefined
    const from = key === undefined ? modules : [...this.#modules.values()]
    for (let m = 0; m < from.length; m++) {
      for (const wrapper of from[m][kind].values()) {
        if (key === undefined) found.push(wrapper)
        else {
          const cls = classOf(wrapper)
          if (typeof cls === 'function' && this.#keys(cls, key)) found.push(wrapper)
        }
      }
    }
    return found
  }
}

// The container gives one per application, in any module, for this class of either build.
Object.defineProperty(DiscoveryService, kBuiltinToken, { value: 'discovery' })

// A class provider's class; what a value, a factory or an alias gave, by its instance.
function classOf (wrapper: InstanceWrapper): Function | undefined {
  if (wrapper.metatype === null || wrapper.inject !== undefined) return (wrapper.instance as object | undefined)?.constructor ?? wrapper.metatype ?? undefined
  return wrapper.metatype
}

/**
 * Imported for code written for NestJS: DiscoveryService and MetadataScanner are given in every
 * module without it.
 */
export class DiscoveryModule {}
Module({})(DiscoveryModule)
