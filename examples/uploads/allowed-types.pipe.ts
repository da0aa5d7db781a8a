import { UnsupportedMediaTypeException, type PipeTransform, type UploadedFileInfo } from '../../plugin/index.js'

/** Refuses files whose declared type is not in the list. */
export class AllowedTypesPipe implements PipeTransform<UploadedFileInfo | UploadedFileInfo[]> {
  constructor (private readonly types: string[]) {}

  transform (value: UploadedFileInfo | UploadedFileInfo[]) {
    for (const file of Array.isArray(value) ? value : [value]) {
      if (!this.types.includes(file.mimetype)) {
        throw new UnsupportedMediaTypeException(`${file.filename}: ${file.mimetype} is not allowed; send ${this.types.join(' or ')}`)
      }
    }
    return value
  }
}
