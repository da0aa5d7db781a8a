import type { FastifyInstance } from 'fastify'
import type { DecoratorPluginOptions } from '../../types/index.js'
import type { NestReading } from './index.js'
import { importOptionalPeer } from '../util/peers.js'

let installed: Promise<boolean> | undefined

// @nestjs/common is an optional peer: its small constants file tells whether it is installed.
function nestInstalled (): Promise<boolean> {
  installed ??= importOptionalPeer('@nestjs/common/constants.js').then((constants) => constants !== undefined)
  return installed
}

/**
 * With @nestjs/common installed, classes decorated with it work as if decorated with the
 * plugin's decorators: the reader (this folder's index) is loaded then, and only then.
 */
export async function readNestMetadata (options: DecoratorPluginOptions, app: FastifyInstance): Promise<NestReading | undefined> {
  if (!await nestInstalled()) return undefined
  const { readNestApplication } = await import('./index.js')
  return await readNestApplication(options, app)
}
