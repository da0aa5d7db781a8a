import type { DecoratorPluginOptions, DynamicModule, ModuleMetadata } from '../../types/index.js'
import { moduleMetadata } from '../decorators/module.js'
import type { ControllerScan } from '../routing/controller-scan.js'
import { enhancerKinds, type EnhancerLists } from '../decorators/enhancers.js'
import { constructorOwner, injectedProperties, injectTokens } from '../decorators/injectable.js'
import { forwardRefTarget, isForwardRef } from '../decorators/forward-ref.js'
import { isThenable } from '../util/thenable.js'
import { internalOptions } from '../di/internal-options.js'
import { tokenName } from '../util/describe.js'
import { classMetadata, isBare, isNestModule, nestClass, readController, readInjectable, readModule } from './reader.js'
import { mayBeCoreToken } from './tokens.js'
import { nestKeys } from './keys.js'
import { adoptDiscoveryModule } from './discovery-module.js'
import { adoptRouterModule } from './router-module.js'

/** What the walk found, and the reading of enhancers it leaves until the controllers are scanned. */
export interface NestWalk {
  /** Tokens that may be @nestjs/core's classes, each with the name of a class that injects it. */
  candidates: Map<Function, string>
  /** Whether a controller is decorated with @nestjs/common's @Controller(). */
  nestControllers: boolean
  /** Reads the guard, pipe, interceptor and filter classes the scanned controllers use. */
  readEnhancers: (controllers: ControllerScan[]) => void
}

/**
 * Walks the application from its root module as the scanner will, and reads the @nestjs/common
 * metadata of every module, provider and NestJS controller on the way into the plugin's own.
 * Controllers decorated with the plugin's are looked at for what they inject: their methods and
 * enhancers may be NestJS's too, which the scan finds (see ForeignRoutes and readEnhancers).
 */
export async function adoptNestMetadata (options: DecoratorPluginOptions): Promise<NestWalk> {
  const seen = new Set<unknown>()
  // Whether a controller is decorated with @nestjs/common's @Controller().
  let nestControllers = false
  // Tokens that may be @nestjs/core's classes, with a class that injects each, for the caller to tell.
  const candidates = new Map<Function, string>()
  const consider = (consumer: string, token: unknown): void => { if (mayBeCoreToken(token) && !candidates.has(token)) candidates.set(token, consumer) }
  // Loops below index their arrays (and skip empty maps): startup code (plugin/README.md).
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
      await adoptRouterModule(dynamic as DynamicModule)
      await visitModule(dynamic.module, isBare(dynamic.module))
      return await visitModuleLists(dynamic, true)
    }
    if (typeof entry !== 'function' || seen.has(entry)) return
    seen.add(entry)
    await adoptDiscoveryModule(entry)
    readModule(entry, bare)
    read(entry)
    const metadata = moduleMetadata(entry)
    if (metadata !== undefined) await visitModuleLists(metadata, isNestModule(entry))
  }

  // A list that is not an array is left to the scanner, which says what is wrong with it.
  const entries = (list: unknown): unknown[] => Array.isArray(list) ? list : []
  const visitModuleLists = async (metadata: ModuleMetadata, nest: boolean): Promise<void> => {
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

  // Only a controller with NestJS's metadata (its own or a base class's) is read here, with its
  // methods; a plugin controller is looked at for what it injects. The scan tells which plugin
  // controllers have NestJS's decorators on methods or parameters, and which enhancers they all use.
  const visitController = (cls: unknown): void => {
    if (typeof cls !== 'function' || seen.has(cls)) return
    seen.add(cls)
    const found = classMetadata(cls)
    if ((found & nestClass) !== 0) {
      nestControllers ||= Reflect.hasOwnMetadata(nestKeys.controller, cls)
      read(cls)
      readController(cls, true)
    } else if (found !== 0) read(cls, false)
  }

  // The guards, pipes, interceptors and filters of the scanned controllers, their handlers and parameters.
  const visitLists = (lists: EnhancerLists): void => {
    for (let i = 0; i < enhancerKinds.length; i++) {
      const entries = lists[enhancerKinds[i].kind]
      for (let j = 0; j < entries.length; j++) visitEnhancer(entries[j])
    }
  }
  const readEnhancers = (controllers: ControllerScan[]): void => {
    for (let c = 0; c < controllers.length; c++) {
      visitLists(controllers[c].enhancers)
      const handlers = controllers[c].handlers
      for (let h = 0; h < handlers.length; h++) {
        visitLists(handlers[h].enhancers)
        const params = handlers[h].params
        for (let p = 0; p < params.length; p++) params[p].pipes.forEach(visitEnhancer)
      }
    }
  }

  await visitModule(options?.module)
  // Modules the testing entry puts in place of others (overrideModule) are scanned too.
  const replaced = typeof options === 'object' && options !== null ? internalOptions(options)?.replaceModules : undefined
  for (const module of replaced?.values() ?? []) await visitModule(module)
  for (const { option } of enhancerKinds) {
    const list: unknown = options?.[option]
    if (Array.isArray(list)) list.forEach(visitEnhancer)
  }
  if (Array.isArray(options?.overrides)) options.overrides.forEach(visitProvider)
  return { candidates, nestControllers, readEnhancers }
}
