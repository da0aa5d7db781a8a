import { isModule } from '../decorators/module.js'
import { defineMetadata } from '../util/metadata.js'
import { kModule } from '../util/symbols.js'
import { loadCore } from './tokens.js'

/**
 * @nestjs/core's DiscoveryModule (which @nestjs/schedule and @nestjs/event-emitter import) read as
 * a module with nothing of its own: the plugin gives DiscoveryService and MetadataScanner in every
 * module, so its providers, @nestjs/core's, are never built. @nestjs/core is loaded only for a
 * module of that name.
 */
export async function adoptDiscoveryModule (cls: Function): Promise<void> {
  if (cls.name !== 'DiscoveryModule' || isModule(cls)) return
  const core = await loadCore()
  if (core?.DiscoveryModule === cls) defineMetadata(kModule, {}, cls)
}
