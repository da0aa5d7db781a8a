import type { FastifyInstance, RouteOptions } from 'fastify'
import type { ModuleNode } from '../di/scanner.js'
import type { ControllerPlan } from './planner.js'
import { joinPath } from '../util/paths.js'
import { ERR_INVALID_PLUGIN } from '../util/errors.js'
import { describe } from '../util/describe.js'

const kSkipOverride = Symbol.for('skip-override')
const kDisplayName = Symbol.for('fastify.display-name')
const kPluginMeta = Symbol.for('plugin-meta')

type PluginFunction = ((instance: FastifyInstance, options: any, done: (error?: Error) => void) => unknown) & Record<symbol, any>

export interface ModulePluginPlan {
  plugin: PluginFunction
  options: unknown
}

const usage = 'an entry is a Fastify plugin, or [plugin, options]'

// `import * as x` of an ESM plugin gives `{ default: plugin }`.
function unwrap (value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'default' in value ? (value as { default: unknown }).default : value
}

/** Checks a module's `plugins` before anything is registered and prepares each entry. */
export function planModulePlugins (module: ModuleNode): ModulePluginPlan[] {
  return (module.metadata.plugins ?? []).map((entry, index) => {
    const where = `${module.name}'s plugins[${index}]`
    let plugin: unknown = entry
    let options: unknown
    if (Array.isArray(entry)) {
      if (entry.length < 1 || entry.length > 2) {
        throw new ERR_INVALID_PLUGIN(`${where} is an array of ${entry.length} items; ${usage}.`)
      }
      plugin = entry[0]
      options = entry[1]
      if (options !== undefined && (options === null || Array.isArray(options) || !['object', 'function'].includes(typeof options))) {
        throw new ERR_INVALID_PLUGIN(`${where} has options ${describe(options)}; plugin options are an object (or a function of the parent instance, as Fastify allows).`)
      }
    }
    plugin = unwrap(plugin)
    if (typeof plugin !== 'function') {
      throw new ERR_INVALID_PLUGIN(`${where} is ${describe(plugin)}, not a Fastify plugin; ${usage}.`)
    }
    return { plugin: sharingContext(plugin as PluginFunction), options: options ?? {} }
  })
}

/**
 * A plain plugin would get an encapsulated context of its own, so its hooks and decorations
 * would never reach the module's controllers. Such a plugin runs through a wrapper that skips
 * the override (as fastify-plugin does), leaving the user's function untouched. Plugins that
 * already skip it, or ask for encapsulation through fastify-plugin, are registered as they are.
 */
function sharingContext (plugin: PluginFunction): PluginFunction {
  if (plugin[kSkipOverride] === true || plugin[kPluginMeta] !== undefined) return plugin
  const shared = function (this: unknown, instance: FastifyInstance, options: unknown, done: (error?: Error) => void) {
    const result = plugin.call(this, instance, options, done) as PromiseLike<unknown> | undefined
    // Fastify finishes a sync plugin without `done` by itself; the wrapper has to do it for it.
    if (plugin.length < 3 && typeof result?.then !== 'function') done()
    return result
  } as PluginFunction
  shared[kSkipOverride] = true
  shared[kDisplayName] = plugin[kDisplayName] ?? (plugin.name || 'anonymous plugin')
  return shared
}

/**
 * Where a module's plugins may route: its own route paths, and every `METHOD path` any controller
 * of the app claims (a copy there would clash with, or shadow, that handler).
 */
export interface ModuleRoutes {
  module: ModuleNode
  paths: string[]
  claimed: Set<string>
}

export function moduleRoutes (module: ModuleNode, plans: ControllerPlan[], all: ControllerPlan[]): ModuleRoutes {
  const routes = (list: ControllerPlan[]) => list.flatMap((plan) => plan.routes)
  return {
    module,
    paths: [...new Set(routes(plans).map((route) => route.fullUrl))],
    claimed: new Set(routes(all).flatMap((route) => route.methods.map((method) => `${method} ${route.fullUrl}`)))
  }
}

const kConfined = Symbol('fdp.confined-route')
type HookedRoute = RouteOptions & { prefix: string, routePath: string, path: string, [kConfined]?: true }

/**
 * Registers the module's plugins in its context, in order, before its controllers.
 * A catch-all route a plugin adds (as @fastify/cors does with `OPTIONS *` for preflights) is app-wide
 * in Fastify's router, while the plugin's hooks answer every request it catches. While the plugins
 * load, such a route is moved onto the module's own paths, one copy per path, so nothing outside
 * the module reaches it. Registration-time only: no module plugins, no hook.
 */
export async function registerModulePlugins (instance: FastifyInstance, plans: ModulePluginPlan[], routesOf: () => ModuleRoutes): Promise<void> {
  if (plans.length === 0) return
  // Every route of the app, told apart by method and path: only a module with plugins needs them.
  const routes = routesOf()
  let loading = true
  // Thrown once the plugin is loaded: a throw inside its own code may escape its error handling.
  let failure: Error | undefined
  instance.addHook('onRoute', function confine (this: FastifyInstance, options) {
    const route = options as HookedRoute
    if (!loading || route[kConfined] || (route.routePath !== '*' && route.routePath !== '/*') || route.prefix !== instance.prefix) return
    const methods = ([] as string[]).concat(route.method)
    const targets = routes.paths
      .map((path) => ({ path, methods: methods.filter((method) => !routes.claimed.has(`${method} ${path}`)) }))
      .filter((target) => target.methods.length > 0)
    if (targets.length === 0) {
      failure ??= new ERR_INVALID_PLUGIN(`${routes.module.name}'s plugins add the catch-all route ${methods.join(',')} ${route.url}, which would answer for every path of the app, and ${routes.module.name} has no route path free for it. Give the module a controller, or register the plugin on the app.`)
      return
    }
    const [first, ...rest] = targets
    const { url, path, prefix, routePath, ...original } = route
    const one = (list: string[]) => list.length === 1 ? list[0] : list
    for (const target of rest) {
      this.route({ ...original, method: one(target.methods), url: target.path, [kConfined]: true } as RouteOptions)
    }
    // The route being added cannot be dropped, only moved: it becomes the first copy.
    route.method = one(first.methods) as RouteOptions['method']
    route.routePath = first.path
    // joinPath drops a trailing slash; a root route's slash URL keeps it.
    route.url = route.path = (joinPath(prefix, first.path) || '/') + (first.path.length > 1 && first.path.endsWith('/') ? '/' : '')
  })
  try {
    for (const { plugin, options } of plans) {
      await instance.register(plugin, options as Record<string, unknown>)
      if (failure) throw failure
    }
  } finally {
    loading = false
  }
}
