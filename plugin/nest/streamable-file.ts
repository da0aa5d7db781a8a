import { kStreamableFile } from '../util/symbols.js'

/**
 * Marks @nestjs/common's StreamableFile as the plugin's own: same getStream() and getHeaders(),
 * so the pipeline streams it with its headers instead of serializing it. Its own file only is
 * loaded, once, and only for an application with NestJS controllers.
 */
export async function brandNestStreamableFile (): Promise<void> {
  const { StreamableFile } = await import('@nestjs/common/file-stream/streamable-file.js' as string)
  if (!Object.hasOwn(StreamableFile.prototype, kStreamableFile)) Object.defineProperty(StreamableFile.prototype, kStreamableFile, { value: true })
}
