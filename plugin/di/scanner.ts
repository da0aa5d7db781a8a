import type { DynamicModule, ForwardReference, ModuleMetadata, Provider, Type } from '../../types/index.js'
import { isModule, moduleMetadata } from '../decorators/module.js'
import { controllerDefinition } from '../decorators/controller.js'
import { forwardRefTarget, isForwardRef } from '../decorators/forward-ref.js'
import { kGlobal } from '../util/symbols.js'
import { getOwnMetadata } from '../util/metadata.js'
import { isThenable } from '../util/thenable.js'
import { appEnhancerKind, type EnhancerKind } from '../decorators/enhancers.js'
import {
  ERR_DYNAMIC_MODULE_FAILED, ERR_INVALID_DECLARATION, ERR_INVALID_EXPORT, ERR_INVALID_PROVIDER, ERR_NOT_A_MODULE, ERR_UNDEFINED_FORWARD_REF
} from '../util/errors.js'
import { describe, tokenName } from '../util/describe.js'
import { noEntries } from '../util/empty.js'
import { injectableOptions } from '../decorators/injectable.js'
import { normalizeProvider, type ProviderDefinition, type Token } from './providers.js'

/** A provider under APP_GUARD, APP_PIPE, APP_INTERCEPTOR or APP_FILTER: a global enhancer built in its module. */
export interface AppEnhancer {
  kind: EnhancerKind
  /** The provider's own token in its module: each one is kept, none is injectable by the APP_* string. */
  token: symbol
  /** `AuthModule's providers[0] (APP_GUARD, useClass AuthGuard)`, for messages. */
  where: string
}

/** One module of the application graph: a class, or a dynamic module; imported several times, it is one node. */
export interface ModuleNode {
  cls: Type
  name: string
  metadata: ModuleMetadata
  imports: ModuleNode[]
  global: boolean
  providers: Map<Token, ProviderDefinition>
  exports: Set<Token>
  exportedModules: ModuleNode[]
  controllers: Type[]
  appEnhancers: AppEnhancer[]
  distance: number
  order: number
}

export interface ModuleGraph {
  root: ModuleNode
  modules: ModuleNode[]
  globals: ModuleNode[]
  /** Each node by what it was imported as (its class, or its dynamic module object). */
  keys: Map<object, ModuleNode>
  /** The modules testing swaps for others, kept for those loaded later (LazyModuleLoader). */
  replace?: Map<unknown, unknown>
}

// One token per APP_* provider object, so scanning the same modules again (testing) gives the same ones.
const appTokens = new WeakMap<object, symbol>()

// An object that is neither a Promise nor a forward reference: a dynamic module, or a provider in exports.
function isDynamicModule (value: unknown): value is DynamicModule {
  return typeof value === 'object' && value !== null && !isThenable(value) && !isForwardRef(value) && !Array.isArray(value)
}

// An object literal: where a dynamic module was meant.
function isPlainObject (value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function resolveForwardRef (entry: ForwardReference, where: string): unknown {
  const value = forwardRefTarget(entry)
  if (value === undefined) {
    throw new ERR_UNDEFINED_FORWARD_REF(`${where} is a forwardRef() whose function returned undefined. ` +
      'It must return the module class, e.g. forwardRef(() => CatsModule); check the name and that the class is exported from its file.')
  }
  return value
}

const dynamicListKeys = ['imports', 'controllers', 'providers', 'exports', 'plugins'] as const

/**
 * A class with no decorator at all in imports: a module that declares nothing, as NestJS reads
 * it (its `@Module({})` writes no metadata, so such modules of NestJS packages look undecorated).
 * A provider or a controller there is a mistake the caller names.
 */
function isEmptyModule (value: unknown): boolean {
  return typeof value === 'function' && value.prototype !== undefined &&
    injectableOptions(value) === undefined && controllerDefinition(value) === undefined && Reflect.getOwnMetadataKeys(value).length === 0
}

/** Checks a dynamic module's shape: its class, its lists. */
function checkDynamicModule (dynamic: DynamicModule, where: string): void {
  const cls: unknown = dynamic.module
  if (typeof cls !== 'function' || cls.prototype === undefined) {
    throw new ERR_NOT_A_MODULE(`${where} is a dynamic module whose "module" is ${describe(cls)}; give the module class itself, e.g. { module: ConfigModule, providers: [...] }.`)
  }
  // Other keys are left alone, as NestJS leaves them: libraries put their own there.
  for (const key of dynamicListKeys) {
    const value = dynamic[key]
    if (value !== undefined && !Array.isArray(value)) {
      throw new ERR_INVALID_DECLARATION(`${where}: the dynamic module ${cls.name} has "${key}" ${describe(value)}, which must be an array.`)
    }
  }
}

/** A class's own @Module() metadata with a dynamic module's added to it. */
function mergedMetadata (cls: Function, dynamic: DynamicModule | undefined): ModuleMetadata {
  const own = moduleMetadata(cls) ?? {}
  if (dynamic === undefined) return own
  const merged: ModuleMetadata = {}
  for (const key of dynamicListKeys) {
    const list = [...(own[key] ?? []), ...(dynamic[key] ?? [])]
    if (list.length > 0) (merged as Record<string, unknown[]>)[key] = list
  }
  return merged
}

/**
 * Walks the imports from the root module, validating every declaration on the way. Imports may be
 * module classes, dynamic modules, Promises of either (awaited in order) and forward references;
 * a dynamic module object is one module, however often it is imported.
 * `replace` swaps modules (classes, dynamic module objects or Promises, by identity) wherever they
 * are imported or exported (testing).
 */
export async function scanModules (root: Type, replace?: Map<unknown, unknown>): Promise<ModuleGraph> {
  if (!isModule(root)) throw notAModule(root, 'the root module', 'the root module')
  const nodes = new Map<object, ModuleNode>()
  const swap = (value: unknown): unknown => replace?.get(value) ?? value
  const rootNode = await moduleScanner(nodes, swap)(root, 'the root module')
  const modules = [...nodes.values()]
  for (const node of modules) addExports(node, swap)
  computeDistances(rootNode, modules)
  return { root: rootNode, modules, globals: modules.filter((m) => m.global), keys: nodes, replace }
}

/** What scanLazyModule() found: the module loaded, the nodes new to the graph, and every node by key. */
export interface LazyScan { node: ModuleNode, added: ModuleNode[], keys: Map<object, ModuleNode> }

/**
 * Scans a module loaded at run time (LazyModuleLoader) against the application's graph: the
 * modules it reaches that the graph already has are those nodes; the graph is not changed.
 * `added`: the new nodes, the loaded module's first unless it was there already.
 */
export async function scanLazyModule (graph: ModuleGraph, entry: unknown): Promise<LazyScan> {
  const keys = new Map(graph.keys)
  const swap = (value: unknown): unknown => graph.replace?.get(value) ?? value
  const node = await moduleScanner(keys, swap)(entry, 'the module LazyModuleLoader.load() was given')
  const added = [...keys.values()].slice(graph.keys.size)
  for (const module of added) addExports(module, swap)
  computeDistances(node, added, new Set(added))
  return { node, added, keys }
}

/** Puts what scanLazyModule() found into the graph, or (`keep` false) takes it out again. */
export function lazyModulesInGraph (graph: ModuleGraph, { added, keys }: LazyScan, keep: boolean): void {
  if (keep) {
    graph.keys = keys
    graph.modules.push(...added)
    graph.globals.push(...added.filter((module) => module.global))
    return
  }
  const gone = new Set(added)
  graph.modules = graph.modules.filter((module) => !gone.has(module))
  graph.globals = graph.globals.filter((module) => !gone.has(module))
  for (const [key, module] of [...graph.keys]) if (gone.has(module)) graph.keys.delete(key)
}

// What visits an imports entry into `nodes`: the node it stands for, scanned with what it imports once.
function moduleScanner (nodes: Map<object, ModuleNode>, swap: (value: unknown) => unknown): (entry: unknown, where: string) => Promise<ModuleNode> {
  // The module an imports entry stands for: its class or dynamic module, Promises awaited.
  async function moduleOf (entry: unknown, where: string): Promise<{ key: object, cls: Type, dynamic?: DynamicModule }> {
    let value = swap(entry)
    let subject = where
    if (isForwardRef(value)) value = swap(resolveForwardRef(value, where))
    if (isThenable(value)) {
      try {
        value = swap(await value)
      } catch (error) {
        throw new ERR_DYNAMIC_MODULE_FAILED(`${where} is a Promise that rejected: ${(error as Error)?.message ?? String(error)}. The function that made the dynamic module failed; see the cause.`, { cause: error })
      }
      subject = `${where} (a Promise) gave`
    }
    if (isModule(value) || isEmptyModule(value)) return { key: value as Type, cls: value as Type }
    if (isDynamicModule(value) && 'module' in value) {
      checkDynamicModule(value, where)
      return { key: value, cls: value.module, dynamic: value }
    }
    throw notAModule(value, where, subject)
  }

  async function visit (entry: unknown, where: string): Promise<ModuleNode> {
    const { key, cls, dynamic } = await moduleOf(entry, where)
    let node = nodes.get(key)
    if (node) return node
    const metadata = mergedMetadata(cls, dynamic)
    node = {
      cls,
      name: cls.name,
      metadata,
      imports: [],
      global: getOwnMetadata(kGlobal, cls) === true || dynamic?.global === true,
      providers: new Map(),
      exports: new Set(),
      exportedModules: [],
      controllers: [],
      appEnhancers: [],
      distance: 0,
      order: nodes.size
    }
    nodes.set(key, node)
    // Indexed loops: a module may list thousands of entries (plugin/README.md).
    const imports = metadata.imports ?? noEntries
    for (let index = 0; index < imports.length; index++) {
      node.imports.push(await visit(imports[index], `entry ${index} of ${cls.name}'s imports`))
    }
    const providers = metadata.providers ?? noEntries
    for (let index = 0; index < providers.length; index++) {
      addProvider(node, providers[index], `${cls.name}'s providers[${index}]`)
    }
    const controllers = metadata.controllers ?? noEntries
    for (let index = 0; index < controllers.length; index++) {
      const controller = controllers[index]
      if (typeof controller !== 'function' || !controllerDefinition(controller)) {
        throw new ERR_INVALID_DECLARATION(`${cls.name}'s controllers[${index}] is ${describe(controller)}, which is not decorated with @Controller(). Add @Controller() to the class or move it to providers.`)
      }
      node.controllers.push(controller)
    }
    return node
  }

  return visit
}

function addProvider (node: ModuleNode, provider: Provider, where: string): void {
  const definition = normalizeProvider(provider, where)
  const app = appEnhancerKind(definition.token)
  if (app === undefined) {
    node.providers.set(definition.token, definition)
    return
  }
  const how = definition.useClass ? `useClass ${definition.useClass.name}` : definition.useFactory ? 'useFactory' : definition.useExisting !== undefined ? `useExisting ${tokenName(definition.useExisting)}` : 'useValue'
  const label = `${where} (${definition.token as string}, ${how})`
  const holder = definition.useClass ? definition.useClass.prototype : definition.useValue
  if ((definition.useClass || 'useValue' in (provider as object)) && typeof holder?.[app.method] !== 'function') {
    const given = definition.useClass ? definition.useClass.name : describe(definition.useValue)
    throw new ERR_INVALID_PROVIDER(`${label}: a global ${app.what} needs ${app.method === 'intercept' ? 'an' : 'a'} ${app.method}() method, and ${given} has none.`)
  }
  let token = appTokens.get(provider as object)
  if (token === undefined) appTokens.set(provider as object, token = Symbol(`${definition.token as string} (${how})`))
  node.providers.set(token, { ...definition, token })
  node.appEnhancers.push({ kind: app.kind, token, where: label })
}

function addExports (node: ModuleNode, swap: (value: unknown) => unknown): void {
  for (const [index, entry] of (node.metadata.exports ?? []).entries()) {
    let exported = swap(entry)
    if (isForwardRef(exported)) exported = swap(resolveForwardRef(exported, `exports[${index}] of ${node.name}`))
    // A dynamic module exports its class: every import of that class is re-exported, as in NestJS.
    // A provider object exports its token.
    const value = isDynamicModule(exported) && 'module' in exported ? exported.module : exported
    const token = isDynamicModule(value) && 'provide' in value ? (value as { provide: Token }).provide : value as Token
    const imported = node.imports.filter((m) => m.cls === token)
    if (imported.length > 0) {
      node.exportedModules.push(...imported)
    } else if (isModule(token)) {
      throw new ERR_INVALID_EXPORT(`${node.name} exports the module ${tokenName(token)} without importing it (exports[${index}]). Add it to ${node.name}'s imports or remove it from exports.`)
    } else if (node.providers.has(token)) {
      node.exports.add(token)
    } else {
      throw new ERR_INVALID_EXPORT(`${node.name} exports ${tokenName(token)} (exports[${index}]), which is not one of its providers nor an imported module. Add it to ${node.name}'s providers, or export the module that provides it.`)
    }
  }
}

function notAModule (value: unknown, where: string, subject: string): Error {
  const is = subject === where ? `${where} is` : subject
  if (value === undefined) {
    return new ERR_NOT_A_MODULE(`${is} undefined; this usually means a circular import between files. Import the module lazily with forwardRef(() => TheModule), or move it to its own file.`)
  }
  if (isPlainObject(value)) {
    return new ERR_NOT_A_MODULE(`${is} ${describe(value)}, which is not a module. A dynamic module names its class: { module: SomeModule, providers, exports, ... }.`)
  }
  return new ERR_NOT_A_MODULE(`${is} ${describe(value)}, which is not a module. ${notAModuleHint(value, 'list it in providers, not in imports', 'or remove it')}`)
}

/** What to do about a value given where a module class belongs. */
export function notAModuleHint (value: unknown, injectableFix: string, otherFix = ''): string {
  if (typeof value === 'function' && injectableOptions(value) !== undefined) return `It is an @Injectable() class: ${injectableFix}.`
  if (typeof value === 'function' && controllerDefinition(value) !== undefined) return 'It is a @Controller() class: list it in a module\'s controllers.'
  if (value !== null && typeof value === 'object' && isModule(value.constructor)) return `It is an instance of ${value.constructor.name}: pass the class itself.`
  if (typeof value !== 'function') return 'Give a class decorated with @Module().'
  return `Decorate the class with @Module()${otherFix === '' ? '' : ` ${otherFix}`}.`
}

// Distance = longest import path from the root. Global modules start beyond any such path, so
// they come first, and what they import comes before them.
// `within`: only those nodes get a distance (modules loaded later leave the others' alone).
function computeDistances (root: ModuleNode, modules: ModuleNode[], within?: Set<ModuleNode>): void {
  const walk = (node: ModuleNode, depth: number, path: Set<ModuleNode>): void => {
    if (path.has(node) || node.distance >= depth || (within !== undefined && !within.has(node))) return
    node.distance = depth
    path.add(node)
    for (const imported of node.imports) walk(imported, depth + 1, path)
    path.delete(node)
  }
  walk(root, 1, new Set())
  for (const node of modules) if (node.global) walk(node, modules.length + 1, new Set())
}

/** Modules in init order: deepest imports and global modules first, the root last. */
export function initOrder (graph: ModuleGraph): ModuleNode[] {
  return [...graph.modules].sort((a, b) => b.distance - a.distance || a.order - b.order)
}
