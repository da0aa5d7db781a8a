import type { ModuleNode } from './scanner.js'
import type { ProviderDefinition, Token } from './providers.js'
import { tokenName } from '../util/describe.js'

export type Builtin = 'request' | 'fastify' | 'reflector' | 'inquirer' | 'moduleRef' | 'applicationConfig' | 'discovery' | 'modulesContainer' | 'metadataScanner' | 'lazyModuleLoader'

/** One thing a binding injects: a constructor argument, or a property set once it is constructed. */
export interface Dependency {
  /** The constructor parameter's index; -1 for a property. */
  index: number
  property?: string | symbol
  token: Token
  optional: boolean
  /** Marked with forwardRef(): it may close a cycle between singletons. */
  forward: boolean
  /** What it resolved to (neither: a missing optional one); present from the start, undefined until resolved. */
  binding?: Binding
  builtin?: Builtin
}

export type BindingKind = 'provider' | 'controller' | 'enhancer' | 'module'

/** A provider, controller, enhancer or module class as declared in one module. */
export interface Binding {
  token: Token
  definition: ProviderDefinition
  module: ModuleNode
  kind: BindingKind
  /** Constructor arguments first, then properties. */
  deps: Dependency[]
  /** How many of `deps` are constructor arguments. */
  params: number
  /** Built once per request: declared REQUEST-scoped, or depends on something that is. */
  perRequest: boolean
  transient: boolean
  instance: unknown
  pending?: Promise<Box>
  built: boolean
  /** Its dependencies are being gathered: a forwardRef() cycle coming back gets `early`. */
  building: boolean
  /** Handed out before construction in a forwardRef() cycle; the constructed instance is copied onto it. */
  early?: object
  /** What INQUIRER injects into the transients built for it: an object of its class. */
  inquirer?: object
}

export interface Box { value: unknown }

export function bindingName (binding: Pick<Binding, 'token' | 'definition'>): string {
  const { definition } = binding
  return definition.useClass && definition.useClass !== binding.token
    ? `${tokenName(binding.token)} (useClass ${definition.useClass.name})`
    : tokenName(binding.token)
}

/** Where a dependency sits, for messages: `at index [0]`, or `for the property "repo"`. */
export function dependencyPlace (dep: Dependency): string {
  return dep.property === undefined ? `at index [${dep.index}]` : `for the property ${JSON.stringify(String(dep.property))}`
}

/** The class of what a binding gives: its class (through aliases), else the built instance's. */
export function builtClass (binding: Binding): Function | undefined {
  const { definition } = binding
  if (definition.useClass) return definition.useClass
  const target = definition.useExisting !== undefined ? binding.deps[0]?.binding : undefined
  if (target !== undefined) return builtClass(target)
  return binding.built && binding.instance !== null && typeof binding.instance === 'object' ? binding.instance.constructor : undefined
}

/** A new binding of `definition` in `module`, not yet linked to its dependencies. */
export function newBinding (module: ModuleNode, definition: ProviderDefinition, kind: BindingKind): Binding {
  return {
    token: definition.token,
    definition,
    module,
    kind,
    deps: [],
    params: 0,
    perRequest: false,
    transient: definition.scope === 'TRANSIENT',
    instance: undefined,
    built: false,
    building: false
  }
}
