import type { FastifyInstance } from 'fastify'
import type { DecoratorPluginOptions } from '../../types/index.js'
import type { ForeignMetadata, TokenAliases } from '../di/container.js'
import type { ControllerScan, ForeignRoutes } from '../routing/controller-scan.js'
import { adoptNestMetadata } from './adopt.js'
import { nestTokens } from './tokens.js'
import { nestKeysUp, readController, readInjectable, routesRead } from './reader.js'
import { hasNestKeys } from './keys.js'
import { brandNestStreamableFile } from './streamable-file.js'
import { refuseSseSignal } from './sse-signal.js'

/** The NestJS reader around the scan: what it reads of the controllers, then what the container is given. */
export interface NestReading extends ForeignRoutes {
  /** Reads the enhancers the scanned controllers use, and gives the container what it needs. */
  finish: (controllers: ControllerScan[]) => Promise<ForeignMetadata>
}

/**
 * Reads the @nestjs/common metadata of the application into the plugin's own: modules, providers
 * and NestJS controllers now; plugin controllers' NestJS methods as the scan finds them; then the
 * tokens NestJS code injects (its strings, @nestjs/core's classes) as the plugin's, and the reader
 * of classes the container meets later (middleware classes).
 */
export async function readNestApplication (options: DecoratorPluginOptions, app: FastifyInstance): Promise<NestReading> {
  const walk = await adoptNestMetadata(options)
  return {
    read: routesRead,
    hasKeys: hasNestKeys,
    hasParamKeys: nestKeysUp,
    readRoutes: (cls) => readController(cls),
    async finish (controllers) {
      walk.readEnhancers(controllers)
      await refuseSseSignal(controllers)
      // NestJS controllers return @nestjs/common's StreamableFile: branded once, it streams as the plugin's.
      if (walk.nestControllers) await brandNestStreamableFile()
      const { aliases, discoverableKeys } = await nestTokens(walk.candidates, app)
      return { aliases, discoverableKeys, readClass: readInjectable, readModule: async (entry) => await readLazyModule(entry, app) }
    }
  }
}

// A module loaded at run time (LazyModuleLoader) is read as the application was: what it reaches,
// and the tokens of @nestjs/core found there.
async function readLazyModule (entry: unknown, app: FastifyInstance): Promise<TokenAliases> {
  const walk = await adoptNestMetadata({ module: entry } as DecoratorPluginOptions)
  return (await nestTokens(walk.candidates, app)).aliases
}
