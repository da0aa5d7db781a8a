import type { RouteTree } from '../../types/index.js'
import type { ModuleGraph } from '../di/scanner.js'
import { kRouterRoutes } from '../util/symbols.js'
import { joinPath } from '../util/paths.js'
import { describe } from '../util/describe.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'

/**
 * The path of each module class that a `RouterModule.register()` of the graph lists, as NestJS
 * composes them: a route's path for its module, a child route's path added to its parent's, a
 * module class among children under its parent's path. The path belongs to the class: every
 * import of it (a dynamic module of it too) serves its controllers there.
 */
export function modulePaths (graph: ModuleGraph): Map<Function, string> {
  const paths = new Map<Function, string>()
  const where = new Map<Function, string>()
  for (const node of graph.modules) {
    const provider = node.providers.get(kRouterRoutes)
    if (provider === undefined) continue
    const register = `RouterModule.register() imported by ${importer(graph, node.cls) ?? node.name}`
    const routes = provider.useValue
    if (!Array.isArray(routes)) throw new ERR_INVALID_DECLARATION(`${register} takes an array of { path, module, children }, given ${describe(routes)}.`)
    addRoutes(routes, '', false, register, paths, where)
  }
  if (paths.size === 0) return paths
  const imported = new Set(graph.modules.map((node) => node.cls as Function))
  for (const [cls, route] of where) {
    if (!imported.has(cls)) {
      throw new ERR_INVALID_DECLARATION(`${route} names ${cls.name}, which the application does not import. RouterModule gives a path to modules the application imports: add ${cls.name} to the imports of a module (the one importing RouterModule, usually).`)
    }
  }
  return paths
}

function addRoutes (routes: unknown[], parent: string, nested: boolean, register: string, paths: Map<Function, string>, where: Map<Function, string>): void {
  for (let i = 0; i < routes.length; i++) {
    const route = routes[i] as RouteTree
    // A module class among children: added with its parent's path.
    if (nested && typeof route === 'function') continue
    const at = `${register}: the route ${nested ? `under "${parent || '/'}" ` : ''}at index ${i}`
    if (route === null || typeof route !== 'object' || typeof route.path !== 'string') {
      throw new ERR_INVALID_DECLARATION(`${at} is ${describe(route)}; give { path: 'admin', module: AdminModule, children: [...] }.`)
    }
    const path = joinPath(parent, route.path)
    if (route.module !== undefined) add(route.module, path, `${at} ("${route.path}")`, paths, where)
    if (route.children === undefined) continue
    if (!Array.isArray(route.children)) throw new ERR_INVALID_DECLARATION(`${at} ("${route.path}") has children ${describe(route.children)}, which must be an array of routes or module classes.`)
    const children = route.children
    for (let c = 0; c < children.length; c++) {
      if (typeof children[c] === 'function') add(children[c] as Function, path, `${at} ("${route.path}"), child ${c}`, paths, where)
    }
    addRoutes(children, path, true, register, paths, where)
  }
}

function add (module: unknown, path: string, at: string, paths: Map<Function, string>, where: Map<Function, string>): void {
  if (typeof module !== 'function') throw new ERR_INVALID_DECLARATION(`${at} has the module ${describe(module)}; give a module class.`)
  const known = paths.get(module)
  if (known !== undefined && known !== path) {
    throw new ERR_INVALID_DECLARATION(`${at} gives ${module.name} the path "${path || '/'}", but ${where.get(module)} gave it "${known || '/'}". A module has one path: list it once.`)
  }
  paths.set(module, path)
  if (!where.has(module)) where.set(module, at)
}

// The module that imports RouterModule, for messages.
function importer (graph: ModuleGraph, cls: Function): string | undefined {
  return graph.modules.find((node) => node.imports.some((imported) => imported.cls === cls))?.name
}
