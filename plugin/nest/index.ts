import type { FastifyInstance } from 'fastify'
import type { DecoratorPluginOptions } from '../../types/index.js'
import type { ForeignMetadata } from '../container.js'
import { adoptNestMetadata } from './adopt.js'
import { nestTokens } from './tokens.js'
import { readInjectable } from './reader.js'
import { brandNestStreamableFile } from './streamable-file.js'

/**
 * Reads the @nestjs/common metadata of the application into the plugin's own, and gives the
 * tokens NestJS code injects (its strings, @nestjs/core's classes) as the plugin's, and the
 * reader of classes the container meets after the scan (middleware classes).
 */
export async function readNestApplication (options: DecoratorPluginOptions, app: FastifyInstance): Promise<ForeignMetadata> {
  const { candidates, nestControllers } = await adoptNestMetadata(options)
  // NestJS controllers return @nestjs/common's StreamableFile: branded once, it streams as the plugin's.
  if (nestControllers) await brandNestStreamableFile()
  return { aliases: await nestTokens(candidates, app), readClass: readInjectable }
}
