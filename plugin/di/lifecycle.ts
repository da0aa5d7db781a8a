import type { ModuleNode } from './scanner.js'
import { bindingName, type Binding } from './binding.js'
import { ERR_LIFECYCLE_HOOK } from '../util/errors.js'

export interface HookTarget { instance: any, name: string }

/**
 * Instances in init order: modules deepest first; inside a module its providers in
 * dependency order, then its controllers, then the module class.
 */
export function lifecycleOrder (created: Array<{ binding: Binding, instance: unknown }>, modules: ModuleNode[]): HookTarget[] {
  const seen = new Set<unknown>()
  const order: HookTarget[] = []
  // Each module's instances, in creation order: one pass over them all, whatever the number of modules.
  const byModule = new Map<ModuleNode, Array<{ binding: Binding, instance: unknown }>>()
  for (const entry of created) {
    const list = byModule.get(entry.binding.module)
    if (list === undefined) byModule.set(entry.binding.module, [entry])
    else list.push(entry)
  }
  // Indexed loops here and in runStart: startup code (plugin/README.md).
  const take = (created: Array<{ binding: Binding, instance: unknown }>, kinds: string[]) => {
    for (let i = 0; i < created.length; i++) {
      const { binding, instance } = created[i]
      if (!kinds.includes(binding.kind)) continue
      if (instance === null || typeof instance !== 'object' || seen.has(instance)) continue
      seen.add(instance)
      order.push({ instance, name: bindingName(binding) })
    }
  }
  for (const module of modules) {
    const created = byModule.get(module)
    if (created === undefined) continue
    take(created, ['provider', 'enhancer'])
    take(created, ['controller'])
    take(created, ['module'])
  }
  return order
}

type StartHook = 'onModuleInit' | 'onApplicationBootstrap'
type StopHook = 'onModuleDestroy' | 'beforeApplicationShutdown' | 'onApplicationShutdown'

const failure = (name: string, hook: string, error: unknown) => `${name}.${hook}() failed: ${(error as Error)?.message ?? String(error)}`

/** Awaits `hook` on every target in order; the first failure stops and names its class. */
export async function runStart (targets: HookTarget[], hook: StartHook): Promise<void> {
  for (let i = 0; i < targets.length; i++) {
    const { instance, name } = targets[i]
    if (typeof instance[hook] !== 'function') continue
    try {
      await instance[hook]()
    } catch (error) {
      throw new ERR_LIFECYCLE_HOOK(failure(name, hook, error), { cause: error })
    }
  }
}

/**
 * Runs each hook phase on every target in reverse order, a phase after the other, all of
 * them even when some throw; then fails naming every class and hook that threw.
 */
export async function runStop (targets: HookTarget[], hooks: StopHook[], signal?: string): Promise<void> {
  const failures: string[] = []
  const causes: unknown[] = []
  const reversed = [...targets].reverse()
  for (const hook of hooks) {
    for (const { instance, name } of reversed) {
      if (typeof instance[hook] !== 'function') continue
      try {
        // onModuleDestroy takes nothing; the shutdown hooks get the signal, if a signal closed the app.
        await (hook === 'onModuleDestroy' ? instance[hook]() : instance[hook](signal))
      } catch (error) {
        failures.push(failure(name, hook, error))
        causes.push(error)
      }
    }
  }
  if (failures.length > 0) {
    throw new ERR_LIFECYCLE_HOOK(failures.join('; '), { cause: causes.length === 1 ? causes[0] : new AggregateError(causes) })
  }
}
