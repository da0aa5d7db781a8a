import type { Container } from './container.js'
import type { ModuleNode } from './scanner.js'
import { bindingName } from './container.js'
import { ERR_LIFECYCLE_HOOK } from './errors.js'

interface HookTarget { instance: any, name: string }

/**
 * Instances in init order: modules deepest first; inside a module its providers in
 * dependency order, then its controllers, then the module class.
 */
export function lifecycleOrder (container: Container, modules: ModuleNode[]): HookTarget[] {
  const seen = new Set<unknown>()
  const order: HookTarget[] = []
  const created = container.takeCreated()
  const take = (module: ModuleNode, kinds: string[]) => {
    for (const { binding, instance } of created) {
      if (binding.module !== module || !kinds.includes(binding.kind)) continue
      if (instance === null || typeof instance !== 'object' || seen.has(instance)) continue
      seen.add(instance)
      order.push({ instance, name: bindingName(binding) })
    }
  }
  for (const module of modules) {
    take(module, ['provider', 'enhancer'])
    take(module, ['controller'])
    take(module, ['module'])
  }
  return order
}

/** Awaits every onModuleInit in order; the first failure stops and names its class. */
export async function runInit (targets: HookTarget[]): Promise<void> {
  for (const { instance, name } of targets) {
    if (typeof instance.onModuleInit !== 'function') continue
    try {
      await instance.onModuleInit()
    } catch (error) {
      throw new ERR_LIFECYCLE_HOOK(`${name}.onModuleInit() failed: ${(error as Error)?.message ?? String(error)}`, { cause: error })
    }
  }
}

/** Runs every onModuleDestroy in reverse order, all of them even when some throw. */
export async function runDestroy (targets: HookTarget[]): Promise<void> {
  const failures: string[] = []
  const causes: unknown[] = []
  for (const { instance, name } of [...targets].reverse()) {
    if (typeof instance.onModuleDestroy !== 'function') continue
    try {
      await instance.onModuleDestroy()
    } catch (error) {
      failures.push(`${name}.onModuleDestroy() failed: ${(error as Error)?.message ?? String(error)}`)
      causes.push(error)
    }
  }
  if (failures.length > 0) {
    throw new ERR_LIFECYCLE_HOOK(failures.join('; '), { cause: causes.length === 1 ? causes[0] : new AggregateError(causes) })
  }
}
