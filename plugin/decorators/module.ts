import type { ModuleMetadata } from '../../types/index.js'
import { kGlobal, kModule } from '../util/symbols.js'
import { defineMetadata, getOwnMetadata, hasOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { legacyDecorator } from '../util/legacy-decorator.js'

const moduleKeys = new Set(['imports', 'controllers', 'providers', 'exports', 'plugins'])

/** Declares a module: its imports, controllers, providers, exports and Fastify plugins. */
export function Module (metadata: ModuleMetadata = {}): ClassDecorator {
  if (metadata === null || typeof metadata !== 'object') {
    throw new ERR_INVALID_DECLARATION(`@Module() takes an object { imports, controllers, providers, exports, plugins }, given ${describe(metadata)}.`)
  }
  for (const key of Object.keys(metadata)) {
    if (!moduleKeys.has(key)) {
      throw new ERR_INVALID_DECLARATION(`@Module() does not know the key "${key}"; use imports, controllers, providers, exports or plugins.`)
    }
    const value = (metadata as Record<string, unknown>)[key]
    if (value !== undefined && !Array.isArray(value)) {
      throw new ERR_INVALID_DECLARATION(`@Module() "${key}" must be an array, given ${describe(value)}.`)
    }
  }
  observeRejections(metadata.imports)
  return legacyDecorator('@Module()', (target: Function) => { defineMetadata(kModule, metadata, target) })
}

const ignore = (): void => {}

/**
 * An async dynamic module in `imports` may reject before the application is registered: the
 * rejection is observed here, so Node does not report it as unhandled (or end the process);
 * registration awaits the Promise and fails with its error.
 */
function observeRejections (imports: unknown[] | undefined, seen = new Set<unknown>()): void {
  for (const entry of imports ?? []) {
    if (seen.has(entry)) continue
    seen.add(entry)
    if (entry instanceof Promise) entry.then(undefined, ignore)
    else if (typeof entry === 'object' && entry !== null && Array.isArray((entry as ModuleMetadata).imports)) observeRejections((entry as ModuleMetadata).imports, seen)
  }
}

/** Makes a module's exports visible to every module without importing it. */
export function Global (): ClassDecorator {
  return legacyDecorator('@Global()', (target: Function) => { defineMetadata(kGlobal, true, target) })
}

export function isModule (value: unknown): value is Function {
  return typeof value === 'function' && hasOwnMetadata(kModule, value)
}

export function moduleMetadata (cls: Function): ModuleMetadata | undefined {
  return getOwnMetadata(kModule, cls)
}
