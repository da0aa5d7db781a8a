import type { DynamicModule, LazyModuleLoaderLoadOptions, Type } from '../../types/index.js'
import type { Binding } from './binding.js'
import type { ModuleRef } from './module-ref.js'
import { initOrder, lazyModulesInGraph, scanLazyModule, type ModuleGraph, type ModuleNode } from './scanner.js'
import { lifecycleOrder, runStart, type HookTarget } from './lifecycle.js'
import { kBuiltinToken } from '../util/symbols.js'
import { isModule } from '../decorators/module.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'

/**
 * Injected as `LazyModuleLoader`: adds a module (and what it imports) to the running
 * application, providers only. It sees the global modules; a module it imports that the
 * application has already built is that module, with its instances.
 */
export abstract class LazyModuleLoader {
  /** The module's ModuleRef once its providers are built and their onModuleInit()/onApplicationBootstrap() ran; the same one for a module loaded before. */
  abstract load (loaderFn: () => Type | DynamicModule | Promise<Type | DynamicModule>, loadOpts?: LazyModuleLoaderLoadOptions): Promise<ModuleRef>
}

// The container injects the application's own for this class, of either build of the package.
Object.defineProperty(LazyModuleLoader, kBuiltinToken, { value: 'lazyModuleLoader' })

/** What the loader asks of the container. */
export interface LazyHost {
  readonly graph: ModuleGraph
  /** The instances of the lifecycle, those of modules loaded later added at the end. */
  lifecycleTargets: HookTarget[]
  /** Reads NestJS's metadata of what `entry` reaches, when the application reads NestJS's. */
  readForeign: (entry: unknown) => Promise<void>
  /** Binds and builds new modules (nothing of them kept if that fails); their instances in creation order. */
  addModules: (modules: ModuleNode[]) => Promise<Array<{ binding: Binding, instance: unknown }>>
  moduleRef: (module: ModuleNode) => ModuleRef
}

/** The application's LazyModuleLoader: one load at a time, so a module two loads reach is built once. */
export class ApplicationLazyLoader extends LazyModuleLoader {
  readonly #host: LazyHost
  #queue: Promise<unknown> = Promise.resolve()

  constructor (host: LazyHost) {
    super()
    this.#host = host
  }

  async load (loaderFn: () => Type | DynamicModule | Promise<Type | DynamicModule>, _loadOpts?: LazyModuleLoaderLoadOptions): Promise<ModuleRef> {
    if (typeof loaderFn !== 'function' || isModule(loaderFn as unknown)) {
      throw new ERR_INVALID_DECLARATION('LazyModuleLoader.load() takes a function returning the module (or a Promise of it): lazyModuleLoader.load(() => ReportsModule), or load(() => import(\'./reports.module.js\').then((m) => m.ReportsModule)).')
    }
    const entry = await loaderFn()
    const loaded = this.#queue.then(async () => await this.#load(entry))
    this.#queue = loaded.catch(() => undefined)
    return await loaded
  }

  async #load (entry: unknown): Promise<ModuleRef> {
    const host = this.#host
    await host.readForeign(entry)
    const scan = await scanLazyModule(host.graph, entry)
    if (!scan.added.includes(scan.node)) return host.moduleRef(scan.node)
    refuseRoutes(scan.added, scan.node)
    lazyModulesInGraph(host.graph, scan, true)
    let created: Array<{ binding: Binding, instance: unknown }>
    try {
      created = await host.addModules(scan.added)
    } catch (error) {
      lazyModulesInGraph(host.graph, scan, false)
      throw error
    }
    const targets = lifecycleOrder(created, initOrder({ ...host.graph, modules: scan.added }))
    // Stopped with the application's: its stop hooks run the others in reverse, these first.
    host.lifecycleTargets.push(...targets)
    await runStart(targets, 'onModuleInit')
    await runStart(targets, 'onApplicationBootstrap')
    return host.moduleRef(scan.node)
  }
}

// Routes are Fastify's, fixed once it is ready: a module loaded later can add none, nor global enhancers.
function refuseRoutes (added: ModuleNode[], loaded: ModuleNode): void {
  for (const module of added) {
    const via = module === loaded ? '' : ` (imported by ${loaded.name})`
    if (module.controllers.length > 0) {
      throw new ERR_INVALID_DECLARATION(`LazyModuleLoader.load(): ${module.name}${via} declares controllers (${module.controllers.map((cls) => cls.name).join(', ')}); a module loaded at run time adds providers only, since the Fastify app's routes are fixed once it is ready. ` +
        `Import ${module.name} into a module of the application instead, or move its controllers into one.`)
    }
    if (module.appEnhancers.length > 0) {
      throw new ERR_INVALID_DECLARATION(`LazyModuleLoader.load(): ${module.name}${via} declares a global enhancer (${module.appEnhancers[0].where}); the routes were planned with the global enhancers when the application started. Declare it in a module imported at startup.`)
    }
  }
}
