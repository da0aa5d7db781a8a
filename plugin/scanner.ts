import type { InjectionToken, ModuleMetadata, Provider, Type } from '../types/index.js'
import { isModule, moduleMetadata } from './module.js'
import { controllerDefinition } from './controller.js'
import { injectableOptions } from './injectable.js'
import { kGlobal } from './symbols.js'
import { ERR_INVALID_DECLARATION, ERR_INVALID_EXPORT, ERR_INVALID_PROVIDER, ERR_NOT_A_MODULE } from './errors.js'
import { describe, tokenName } from './describe.js'

export type Token = InjectionToken

export interface ProviderDefinition {
  token: Token
  useClass?: Type
  useValue?: unknown
  useFactory?: (...args: any[]) => unknown
  inject?: Array<Token | { token: Token, optional?: boolean }>
  useExisting?: Token
  scope: 'DEFAULT' | 'REQUEST' | 'TRANSIENT'
}

/** One module of the application graph; a module imported several times is one node. */
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
  distance: number
  order: number
}

export interface ModuleGraph {
  root: ModuleNode
  modules: ModuleNode[]
  globals: ModuleNode[]
}

/**
 * Walks the imports from the root module, validating every declaration on the way.
 * `replace` swaps module classes wherever they are imported or exported (testing).
 */
export function scanModules (root: Type, replace?: Map<Function, Function>): ModuleGraph {
  const nodes = new Map<Function, ModuleNode>()
  const swap = (value: unknown): unknown => replace?.get(value as Function) ?? value

  function visit (cls: Type): ModuleNode {
    let node = nodes.get(cls)
    if (node) return node
    const metadata = moduleMetadata(cls)
    node = {
      cls,
      name: cls.name,
      metadata,
      imports: [],
      global: Reflect.getOwnMetadata(kGlobal, cls) === true,
      providers: new Map(),
      exports: new Set(),
      exportedModules: [],
      controllers: [],
      distance: 0,
      order: nodes.size
    }
    nodes.set(cls, node)
    for (const [index, entry] of (metadata.imports ?? []).entries()) {
      const imported = swap(entry)
      if (!isModule(imported)) throw notAModule(imported, `entry ${index} of ${cls.name}'s imports`)
      node.imports.push(visit(imported as Type))
    }
    for (const [index, provider] of (metadata.providers ?? []).entries()) {
      const definition = normalizeProvider(provider, `${cls.name}'s providers[${index}]`)
      node.providers.set(definition.token, definition)
    }
    for (const [index, controller] of (metadata.controllers ?? []).entries()) {
      if (typeof controller !== 'function' || !controllerDefinition(controller)) {
        throw new ERR_INVALID_DECLARATION(`${cls.name}'s controllers[${index}] is ${describe(controller)}, which is not decorated with @Controller(). Add @Controller() to the class or move it to providers.`)
      }
      node.controllers.push(controller)
    }
    return node
  }

  if (!isModule(root)) throw notAModule(root, 'the root module')
  const rootNode = visit(root)
  const modules = [...nodes.values()]

  for (const node of modules) {
    for (const [index, exported] of (node.metadata.exports ?? []).entries()) {
      const token = swap(exported) as Token
      if (isModule(token)) {
        const imported = node.imports.find((m) => m.cls === token)
        if (!imported) {
          throw new ERR_INVALID_EXPORT(`${node.name} exports the module ${tokenName(token)} without importing it (exports[${index}]). Add it to ${node.name}'s imports or remove it from exports.`)
        }
        node.exportedModules.push(imported)
      } else if (node.providers.has(token)) {
        node.exports.add(token)
      } else {
        throw new ERR_INVALID_EXPORT(`${node.name} exports ${tokenName(token)} (exports[${index}]), which is not one of its providers nor an imported module. Add it to ${node.name}'s providers, or export the module that provides it.`)
      }
    }
  }

  computeDistances(rootNode, modules)
  return { root: rootNode, modules, globals: modules.filter((m) => m.global) }
}

function notAModule (value: unknown, where: string): Error {
  if (value === undefined) {
    return new ERR_NOT_A_MODULE(`${where} is undefined; this usually means a circular import between files. Check the import order or move the module to its own file.`)
  }
  return new ERR_NOT_A_MODULE(`${where} is ${describe(value)}, which is not a module. ${notAModuleHint(value, 'list it in providers, not in imports', 'or remove it')}`)
}

/** What to do about a value given where a module class belongs. */
export function notAModuleHint (value: unknown, injectableFix: string, otherFix = ''): string {
  if (typeof value === 'function' && injectableOptions(value) !== undefined) return `It is an @Injectable() class: ${injectableFix}.`
  if (typeof value === 'function' && controllerDefinition(value) !== undefined) return 'It is a @Controller() class: list it in a module\'s controllers.'
  if (value !== null && typeof value === 'object' && isModule(value.constructor)) return `It is an instance of ${value.constructor.name}: pass the class itself.`
  if (typeof value !== 'function') return 'Give a class decorated with @Module().'
  return `Decorate the class with @Module()${otherFix === '' ? '' : ` ${otherFix}`}.`
}

const providerKeys = ['useClass', 'useValue', 'useFactory', 'useExisting'] as const

export function normalizeProvider (provider: Provider, where: string): ProviderDefinition {
  if (typeof provider === 'function') {
    const cls: Function = provider
    if (isModule(cls as unknown)) {
      throw new ERR_INVALID_PROVIDER(`${where} is the module ${cls.name}; modules belong in imports, not providers.`)
    }
    if (cls.prototype === undefined) {
      throw new ERR_INVALID_PROVIDER(`${where} is a function that is not a class (${cls.name || 'anonymous'}); use { provide: token, useFactory: fn } for a factory.`)
    }
    return { token: provider, useClass: provider, scope: checkScope(injectableOptions(cls)?.scope ?? 'DEFAULT', `${where} (${cls.name})`) }
  }
  if (provider === null || typeof provider !== 'object' || !('provide' in provider)) {
    throw new ERR_INVALID_PROVIDER(`${where} is ${describe(provider)}; a provider is a class or { provide, useClass | useValue | useFactory | useExisting }.`)
  }
  const token = (provider as { provide: Token }).provide
  if (!isToken(token)) {
    throw new ERR_INVALID_PROVIDER(`${where} has provide: ${describe(token)}; a token is a class, a string or a symbol.`)
  }
  const used = providerKeys.filter((key) => key in provider)
  if (used.length !== 1) {
    throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}) must have exactly one of useClass, useValue, useFactory, useExisting; it has ${used.length === 0 ? 'none' : used.join(', ')}.`)
  }
  const p = provider as Record<string, any>
  if ('useClass' in p && typeof p.useClass !== 'function') throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): useClass must be a class, given ${describe(p.useClass)}.`)
  if ('useFactory' in p && typeof p.useFactory !== 'function') throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): useFactory must be a function, given ${describe(p.useFactory)}.`)
  if ('inject' in p && p.inject !== undefined && !Array.isArray(p.inject)) throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): inject must be an array of tokens.`)
  for (const [index, entry] of (p.inject ?? []).entries()) {
    const dependency = entry !== null && typeof entry === 'object' && 'token' in entry ? entry.token : entry
    if (!isToken(dependency)) {
      throw new ERR_INVALID_PROVIDER(`${where} (${tokenName(token)}): inject[${index}] is ${describe(entry)}; an entry is a token (class, string or symbol) or { token, optional }.`)
    }
  }
  const scope = checkScope(p.scope ?? (p.useClass ? injectableOptions(p.useClass)?.scope : undefined) ?? 'DEFAULT', where)
  return { token, useClass: p.useClass, useValue: p.useValue, useFactory: p.useFactory, inject: p.inject, useExisting: p.useExisting, scope }
}

const scopes = new Set(['DEFAULT', 'REQUEST', 'TRANSIENT'])

function checkScope (scope: unknown, where: string): ProviderDefinition['scope'] {
  if (!scopes.has(scope as string)) {
    throw new ERR_INVALID_PROVIDER(`${where}: scope must be DEFAULT, REQUEST or TRANSIENT, given ${describe(scope)}. Use Scope.DEFAULT, Scope.REQUEST or Scope.TRANSIENT.`)
  }
  return scope as ProviderDefinition['scope']
}

export function isToken (value: unknown): value is Token {
  return typeof value === 'function' || typeof value === 'string' || typeof value === 'symbol'
}

// Distance = longest import path from the root. Global modules start beyond any such path, so
// they come first, and what they import comes before them.
function computeDistances (root: ModuleNode, modules: ModuleNode[]): void {
  const walk = (node: ModuleNode, depth: number, path: Set<ModuleNode>): void => {
    if (path.has(node) || node.distance >= depth) return
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
