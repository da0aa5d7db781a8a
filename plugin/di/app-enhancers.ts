import type { Binding, Container } from './container.js'
import { enhancerKind, enhancerKinds, type EnhancerKind, type EnhancerLists } from '../decorators/enhancers.js'
import type { EnhancerRefLists, EnhancerRefs } from './enhancer-ref.js'
import type { ModuleNode } from './scanner.js'
import { ERR_INVALID_PROVIDER } from '../util/errors.js'
import { describe, tokenName } from '../util/describe.js'

// Fails on an APP_* instance made by a factory or an alias that lacks its enhancer's method.
function checkOf (binding: Binding, where: string, kind: EnhancerKind): (value: unknown) => void {
  const { what, method } = enhancerKind(kind)
  const { useFactory, useExisting } = binding.definition
  return (value) => {
    if (typeof (value as Record<string, unknown> | null | undefined)?.[method] === 'function') return
    const source = useFactory ? 'the factory' : useExisting !== undefined ? tokenName(useExisting) : 'it'
    throw new ERR_INVALID_PROVIDER(`${where}: a global ${what} needs ${method === 'intercept' ? 'an' : 'a'} ${method}() method, and ${source} gave ${describe(value)} with none.`)
  }
}

/**
 * The global guards, pipes, interceptors and filters in NestJS's order: the APP_* providers built
 * once (modules in scan order, providers in declaration order), then the plugin options' entries
 * (resolved in the root module), then the request-scoped APP_* providers.
 */
export function globalEnhancers (refs: EnhancerRefs, container: Container, modules: ModuleNode[], options: EnhancerLists): EnhancerRefLists {
  // A copy: the lists of each kind are replaced below, and refs.lists() may give shared ones.
  const lists = { ...refs.lists(options, container.graph.root) }
  for (const { kind } of enhancerKinds) {
    const app = modules.flatMap((module) => module.appEnhancers.filter((entry) => entry.kind === kind).map(({ token, where }) => {
      const binding = container.declared(module, token)
      return { binding, check: checkOf(binding, where, kind) }
    }))
    if (app.length === 0) continue
    const once = refs.ofBindings<never>(app.filter(({ binding }) => !binding.perRequest))
    const perRequest = refs.ofBindings<never>(app.filter(({ binding }) => binding.perRequest))
    Object.assign(lists, { [kind]: [...once, ...lists[kind], ...perRequest] })
  }
  return lists
}
