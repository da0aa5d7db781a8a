import type { FastifyInstance } from 'fastify'
import type { ModuleNode } from './scanner.js'
import { ERR_INVALID_PLUGIN, describe } from './errors.js'

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

/** Registers the module's plugins in its context, in order, before its controllers. */
export async function registerModulePlugins (instance: FastifyInstance, plans: ModulePluginPlan[]): Promise<void> {
  for (const { plugin, options } of plans) await instance.register(plugin, options as Record<string, unknown>)
}
