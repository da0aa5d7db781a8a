import { type Binding, bindingName } from './binding.js'
import { ERR_CIRCULAR_DEPENDENCY } from '../util/errors.js'

const breakIt = 'Break the cycle, for example by moving what both need into a third provider'

function describeCycle (members: Binding[]): string {
  const modules = new Set(members.map((member) => member.module))
  return modules.size === 1
    ? `${members.map(bindingName).join(' -> ')} in module ${members[0].module.name}`
    : members.map((member) => `${bindingName(member)} (${member.module.name})`).join(' -> ')
}

/**
 * The cycles among `bindings`, each from the binding construction comes back to (the first one
 * the depth-first walk meets, as instantiate() meets it) round to it again. A cycle none of whose
 * injections is marked with forwardRef() fails here.
 */
function findCycles (bindings: Binding[]): Binding[][] {
  const state = new Map<Binding, 'visiting' | 'done'>()
  // The walk's path is path[0 .. depth - 1], written in place: popping the last entry of an
  // array makes V8 shrink it, and the next push grow it again, once per binding walked.
  const path: Binding[] = []
  // Whether the injection that led to path[i] is a forwardRef().
  const forwardInto: boolean[] = []
  let depth = 0
  const cycles: Binding[][] = []
  const visit = (binding: Binding, forward: boolean): void => {
    // Most bindings (controllers first) inject nothing, and what injects nothing closes no cycle.
    const deps = binding.deps
    if (deps.length === 0) return
    const seen = state.get(binding)
    if (seen === 'done') return
    if (seen === 'visiting') {
      const start = path.lastIndexOf(binding, depth - 1)
      const members = path.slice(start, depth).concat(binding)
      if (!forward && !forwardInto.slice(start + 1, depth).some(Boolean)) {
        throw new ERR_CIRCULAR_DEPENDENCY(`Circular dependency: ${describeCycle(members)}. ${breakIt}, or mark one of its injections with forwardRef(() => Token).`)
      }
      cycles.push(members)
      return
    }
    state.set(binding, 'visiting')
    path[depth] = binding
    forwardInto[depth] = forward
    depth++
    for (let i = 0; i < deps.length; i++) if (deps[i].binding) visit(deps[i].binding!, deps[i].forward)
    depth--
    state.set(binding, 'done')
  }
  // Indexed loops here and below: startup code (plugin/README.md).
  for (let i = 0; i < bindings.length; i++) visit(bindings[i], false)
  return cycles
}

/** Marks what is built per request: REQUEST-scoped, injecting REQUEST, or depending on one that is. */
function markPerRequest (bindings: Binding[]): void {
  const consumers = new Map<Binding, Binding[]>()
  const queue: Binding[] = []
  for (let b = 0; b < bindings.length; b++) {
    const binding = bindings[b]
    const deps = binding.deps
    let perRequest = binding.definition.scope === 'REQUEST'
    for (let i = 0; i < deps.length; i++) {
      const dep = deps[i]
      if (dep.builtin === 'request') perRequest = true
      if (dep.binding === undefined) continue
      // Most have one consumer: a list of one, not an empty one grown by a push.
      const list = consumers.get(dep.binding)
      if (list) list.push(binding)
      else consumers.set(dep.binding, [binding])
    }
    binding.perRequest = perRequest
    if (perRequest) queue.push(binding)
  }
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const consumer of consumers.get(next) ?? []) {
      if (consumer.perRequest) continue
      consumer.perRequest = true
      queue.push(consumer)
    }
  }
}

// Whether an object can stand for the binding before it is built: a class's, or an alias's target's.
function canBeEarly (binding: Binding): boolean {
  if (binding.definition.useClass) return true
  const target = binding.definition.useExisting !== undefined ? binding.deps[0]?.binding : undefined
  return target !== undefined && canBeEarly(target)
}

/**
 * Checks the dependency graph once every binding is known: a cycle needs a forwardRef(), and
 * forwardRef() resolves only cycles between singletons whose first binding can be handed out
 * before it is built (a class, as NestJS does). Sets every binding's `perRequest`.
 */
export function checkDependencies (bindings: Binding[]): void {
  const cycles = findCycles(bindings)
  markPerRequest(bindings)
  for (const members of cycles) {
    const through = `Circular dependency: ${describeCycle(members)}, through forwardRef().`
    const scoped = members.find((member) => member.perRequest || member.transient)
    if (scoped) {
      throw new ERR_CIRCULAR_DEPENDENCY(`${through} ${bindingName(scoped)} is ${scoped.transient ? 'transient' : 'request-scoped'}: ` +
        `forwardRef() only resolves cycles between singletons, as in NestJS. ${breakIt}.`)
    }
    if (!canBeEarly(members[0])) {
      const name = bindingName(members[0])
      throw new ERR_CIRCULAR_DEPENDENCY(`${through} ${name} is made by a factory, which cannot be handed out before it has run. ` +
        `Let a class provider come first in the cycle (list it before ${name} in providers), or break the cycle.`)
    }
  }
}
