import type { DynamicModule, Routes } from '../../types/index.js'
import { Module } from './module.js'
import { kRouterRoutes } from '../util/symbols.js'

/**
 * NestJS's RouterModule: `RouterModule.register([{ path, module, children }])` gives each listed
 * module a path, put between the global prefix (and a URI version) and its controllers' paths.
 * The paths are read from the module graph at registration (routing/module-paths.ts).
 */
export class RouterModule {
  static register (routes: Routes): DynamicModule {
    return { module: RouterModule, providers: [{ provide: kRouterRoutes, useValue: routes }] }
  }
}
Module({})(RouterModule)
