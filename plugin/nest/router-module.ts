import type { DynamicModule } from '../../types/index.js'
import { RouterModule } from '../decorators/router-module.js'
import { kRouterRoutes } from '../util/symbols.js'
import { loadCore } from './tokens.js'

/**
 * @nestjs/core's `RouterModule.register(routes)` read as the plugin's: NestJS's module writes each
 * listed module's path (its MODULE_PATH metadata) when it is built, with its own container; the
 * plugin reads the same routes from the module graph before anything is built. The dynamic
 * module (a new object per register() call) becomes the plugin's RouterModule with those routes.
 * @nestjs/core is loaded only for a module of that name.
 */
export async function adoptRouterModule (dynamic: DynamicModule): Promise<void> {
  if (dynamic.module.name !== 'RouterModule' || dynamic.module === RouterModule) return
  const core = await loadCore()
  if (core === undefined || core.RouterModule !== dynamic.module) return
  const providers = dynamic.providers ?? []
  dynamic.module = RouterModule
  // Its ROUTES token is not among @nestjs/core's exports: the symbol is known by its description.
  dynamic.providers = providers.map((provider) => isRoutesToken((provider as { provide?: unknown }).provide)
    ? { provide: kRouterRoutes, useValue: (provider as { useValue?: unknown }).useValue }
    : provider)
}

const isRoutesToken = (token: unknown): boolean => typeof token === 'symbol' && token.description === 'ROUTES'
