import type { DecoratorPluginOptions, ModuleMetadata } from '../../types/index.js'
import { moduleMetadata } from '../module.js'
import { routeDefinitions } from '../controller.js'
import { paramDefinitions } from '../params.js'
import { enhancersOf } from '../enhancers.js'
import { kFilters, kGuards, kInterceptors, kPipes } from '../symbols.js'
import { constructorOwner, injectedProperties, injectTokens } from '../injectable.js'
import { forwardRefTarget, isForwardRef } from '../forward-ref.js'
import { isThenable } from '../thenable.js'
import { internalOptions } from '../internal-options.js'
import { tokenName } from '../describe.js'
import { bareMethods, isBare, isNestModule, methodMetadata, nestKeysUp, readController, readInjectable, readModule } from './reader.js'
import { mayBeCoreToken } from './tokens.js'
import { nestKeys } from './keys.js'

const enhancerKeys = [kGuards, kPipes, kInterceptors, kFilters]

/**
 * Walks the application from its root module as the scanner will, and reads the @nestjs/common
 * metadata of every module, provider, controller and enhancer on the way into the plugin's own.
 * Classes decorated with the plugin's decorators are walked too: they may use NestJS's
 * guards, pipes or parameter decorators, or be imported by a NestJS module.
 */
export async function adoptNestMetadata (options: DecoratorPluginOptions): Promise<{ candidates: Map<Function, string>, nestControllers: boolean }> {
  const seen = new Set<unknown>()
  // Whether a controller is decorated with @nestjs/common's @Controller().
  let nestControllers = false
  // Tokens that may be @nestjs/core's classes, with a class that injects each, for the caller to tell.
  const candidates = new Map<Function, string>()
  const consider = (consumer: string, token: unknown): void => { if (mayBeCoreToken(token) && !candidates.has(token)) candidates.set(token, consumer) }
  // Loops below index their arrays (and skip empty maps): run once per class, mostly before V8
  // optimizes them, an iterator would allocate a result object per step.
  const read = (cls: Function, nest = true): void => {
    if (nest) readInjectable(cls)
    const types: unknown[] | undefined = Reflect.getOwnMetadata('design:paramtypes', constructorOwner(cls))
    if (types !== undefined) for (let i = 0; i < types.length; i++) consider(cls.name, types[i])
    const tokens = injectTokens(cls)
    if (tokens.size > 0) for (const token of tokens.values()) consider(cls.name, token)
    const properties = injectedProperties(cls)
    for (let i = 0; i < properties.length; i++) consider(cls.name, properties[i].token ?? Reflect.getMetadata('design:type', cls.prototype, properties[i].key))
  }

  const visitModule = async (entry: unknown, bare = false): Promise<void> => {
    // What the scanner will import: a forward reference's target, a Promise's value.
    if (isForwardRef(entry)) return await visitModule(forwardRefTarget(entry), bare)
    if (isThenable(entry)) {
      let value: unknown
      try {
        value = await entry
      } catch {
        return // the scanner reports it
      }
      return await visitModule(value, bare)
    }
    // A dynamic module object: its class, and the lists it adds.
    if (typeof entry === 'object' && entry !== null && typeof (entry as { module?: unknown }).module === 'function') {
      if (seen.has(entry)) return
      seen.add(entry)
      const dynamic = entry as ModuleMetadata & { module: Function }
      await visitModule(dynamic.module, isBare(dynamic.module))
      return await visitLists(dynamic, true)
    }
    if (typeof entry !== 'function' || seen.has(entry)) return
    seen.add(entry)
    readModule(entry, bare)
    read(entry)
    const metadata = moduleMetadata(entry)
    if (metadata !== undefined) await visitLists(metadata, isNestModule(entry))
  }

  // A list that is not an array is left to the scanner, which says what is wrong with it.
  const entries = (list: unknown): unknown[] => Array.isArray(list) ? list : []
  const visitLists = async (metadata: ModuleMetadata, nest: boolean): Promise<void> => {
    // NestJS's @Module({}) writes nothing: a bare class a NestJS module imports is such a module.
    for (const imported of entries(metadata.imports)) await visitModule(imported, nest && typeof imported === 'function' && isBare(imported))
    for (const provider of entries(metadata.providers)) visitProvider(provider)
    for (const controller of entries(metadata.controllers)) visitController(controller)
  }

  const visitProvider = (entry: unknown): void => {
    const provider = (typeof entry === 'object' && entry !== null ? entry : {}) as { useClass?: unknown, useExisting?: unknown, inject?: unknown }
    const cls = typeof entry === 'function' ? entry : provider.useClass
    if (typeof cls === 'function') read(cls)
    const name = `the provider of ${tokenName((provider as { provide?: unknown }).provide)}`
    consider(name, provider.useExisting)
    if (Array.isArray(provider.inject)) provider.inject.forEach((dependency) => consider(name, typeof dependency === 'object' && dependency !== null ? dependency.token : dependency))
  }

  // A guard, pipe, interceptor or filter: a class built through DI, or an instance.
  const visitEnhancer = (entry: unknown): void => {
    const cls = typeof entry === 'function' ? entry : (entry as object | null)?.constructor
    if (typeof cls === 'function' && cls !== Object) read(cls)
  }

  // The guards, pipes, interceptors and filters a controller or a handler declares.
  const visitEnhancers = (holder: object): void => {
    for (let i = 0; i < enhancerKeys.length; i++) enhancersOf(enhancerKeys[i], holder).forEach(visitEnhancer)
  }

  const visitController = (cls: unknown): void => {
    if (typeof cls !== 'function' || seen.has(cls)) return
    seen.add(cls)
    // Whether the class or a base class has NestJS's metadata: read once for both readers, and
    // without it neither has anything of the class to read (most controllers).
    const nest = nestKeysUp(cls)
    nestControllers ||= nest && Reflect.hasOwnMetadata(nestKeys.controller, cls)
    read(cls, nest)
    const methods = methodMetadata(cls)
    readController(cls, nest, methods)
    visitEnhancers(cls)
    const routes = routeDefinitions(cls)
    for (let i = 0; i < routes.length; i++) {
      const key = routes[i].key
      const handler = (cls.prototype as Record<string | symbol, unknown>)[key]
      if (typeof handler !== 'function') continue
      // A handler with no metadata of its own has no enhancers to look up (a method of the class's
      // own needs no second look when the look at its methods found metadata on none).
      const tagged = methods !== bareMethods || !Object.hasOwn(cls.prototype, key)
      if (tagged && Reflect.getOwnMetadataKeys(handler).length > 0) visitEnhancers(handler)
      const params = paramDefinitions(cls.prototype, key)
      for (let j = 0; j < params.length; j++) params[j].pipes.forEach(visitEnhancer)
    }
  }

  await visitModule(options?.module)
  // Modules the testing entry puts in place of others (overrideModule) are scanned too.
  const replaced = typeof options === 'object' && options !== null ? internalOptions(options)?.replaceModules : undefined
  for (const module of replaced?.values() ?? []) await visitModule(module)
  for (const list of [options?.globalGuards, options?.globalPipes, options?.globalInterceptors, options?.globalFilters]) {
    if (Array.isArray(list)) list.forEach(visitEnhancer)
  }
  if (Array.isArray(options?.overrides)) options.overrides.forEach(visitProvider)
  return { candidates, nestControllers }
}
