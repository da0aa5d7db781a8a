import rateLimit from '@fastify/rate-limit'
import { Module, Hook, UploadedFile, UploadedFiles, RawBody, type UploadedFileInfo, type HookName } from '../../plugin/index.js'

@Module({ plugins: [rateLimit, [rateLimit, { max: 1 }], async () => {}] })
export class WithPlugins {}

export class Hooks {
  @Hook('onRequest') a () {}
  // @ts-expect-error not a request hook
  @Hook('onClose') b () {}
}

export class Uploads {
  a (@UploadedFile() file: UploadedFileInfo, @UploadedFiles('photos') files: UploadedFileInfo[], @RawBody() raw: Buffer) { return [file, files, raw] }
  b (@UploadedFile({ field: 'doc', required: false }) file?: UploadedFileInfo) { return file }
  // @ts-expect-error required is a boolean
  c (@UploadedFile({ required: 'no' }) file?: UploadedFileInfo) { return file }
}

export const name: HookName = 'preHandler'
