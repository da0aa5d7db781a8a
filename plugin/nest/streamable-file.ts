import { kStreamableFile } from '../util/symbols.js'
import importPeer from '../util/import-peer.cjs'

/**
 * Marks @nestjs/common's StreamableFile as the plugin's own: same getStream() and getHeaders(),
 * so the pipeline streams it with its headers instead of serializing it. Its own file only is
 * loaded, once, and only for an application with NestJS controllers.
 */
export async function brandNestStreamableFile (): Promise<void> {
  const { StreamableFile } = await importPeer('@nestjs/common/file-stream/streamable-file.js')
  if (!Object.hasOwn(StreamableFile.prototype, kStreamableFile)) Object.defineProperty(StreamableFile.prototype, kStreamableFile, { value: true })
}
