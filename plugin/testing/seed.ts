import type { Binding, Box, Container } from '../di/container.js'
import type { Token } from '../di/providers.js'

// Where a binding sits: scanning the same module graph again gives the same module order.
function place (binding: Binding): string {
  return `${binding.module.order}:${binding.kind}`
}

// The builtins that belong to one build: its Fastify context, its ModuleRefs, its discovery view.
const heldBuiltins = new Set<string>(['fastify', 'moduleRef', 'discovery', 'modulesContainer'])

/**
 * What a second build of the same graph may take from `container` instead of building again:
 * every singleton, except those that hold the first build's Fastify context (FASTIFY), ModuleRef or
 * discovery view (DiscoveryService, ModulesContainer),
 * directly or through a dependency. Those are built anew against the second build's.
 */
export function seedFrom (container: Container): (binding: Binding) => Box | undefined {
  const instances = new Map<string, Map<Token, unknown>>()
  const holdsFastify = new Map<Binding, boolean>()
  const holds = (binding: Binding): boolean => {
    let known = holdsFastify.get(binding)
    if (known === undefined) {
      holdsFastify.set(binding, false)
      known = binding.deps.some((dep) => (dep.builtin !== undefined && heldBuiltins.has(dep.builtin)) || (dep.binding !== undefined && holds(dep.binding)))
      holdsFastify.set(binding, known)
    }
    return known
  }
  for (const binding of container.singletons()) {
    if (holds(binding)) continue
    let tokens = instances.get(place(binding))
    if (!tokens) instances.set(place(binding), tokens = new Map())
    tokens.set(binding.token, binding.instance)
  }
  return (binding) => {
    const tokens = instances.get(place(binding))
    return tokens?.has(binding.token) === true ? { value: tokens.get(binding.token) } : undefined
  }
}
