import { Injectable, NotFoundException, type UploadedFileInfo } from '../../plugin/index.js'

export interface StoredFile { id: number, filename: string, mimetype: string, size: number, description: string | null }

/** Keeps uploads in memory; a real app would write them to disk or object storage. */
@Injectable()
export class FilesService {
  readonly #files = new Map<number, { info: StoredFile, content: Buffer }>()

  save (file: UploadedFileInfo, description: string | null = null): StoredFile {
    const info = { id: this.#files.size + 1, filename: file.filename, mimetype: file.mimetype, size: file.buffer.length, description }
    this.#files.set(info.id, { info, content: file.buffer })
    return info
  }

  get (id: number): { info: StoredFile, content: Buffer } {
    const file = this.#files.get(id)
    if (!file) throw new NotFoundException(`File ${id} not found`)
    return file
  }
}
