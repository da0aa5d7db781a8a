import type { UploadedFileOptions } from '../types/index.js'
import { paramDecorator, isPipe, type PipeEntry } from './params.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { describe } from './describe.js'

function uploadDecorator (kind: 'file' | 'files', name: string) {
  return (fieldOrOptions?: string | UploadedFileOptions | PipeEntry, ...pipes: PipeEntry[]): ParameterDecorator => {
    let options: UploadedFileOptions = {}
    if (isPipe(fieldOrOptions)) pipes = [fieldOrOptions, ...pipes]
    else if (typeof fieldOrOptions === 'string') options = { field: fieldOrOptions }
    else if (typeof fieldOrOptions === 'object' && fieldOrOptions !== null && !Array.isArray(fieldOrOptions)) options = fieldOrOptions
    else if (fieldOrOptions !== undefined) {
      throw new ERR_INVALID_DECLARATION(`@${name}() takes a field name or { field, required }, then pipes; given ${describe(fieldOrOptions)}.`)
    }
    if (options.field !== undefined && typeof options.field !== 'string') {
      throw new ERR_INVALID_DECLARATION(`@${name}(): "field" must be a string, given ${describe(options.field)}.`)
    }
    for (const pipe of pipes) {
      if (!isPipe(pipe)) throw new ERR_INVALID_DECLARATION(`@${name}(): every pipe needs a transform() method, given ${describe(pipe)}.`)
    }
    const required = options.required ?? true
    return paramDecorator(`@${name}()`, { kind, data: options.field, required, pipes })
  }
}

/**
 * One uploaded file (`{ fieldname, filename, encoding, mimetype, buffer }`): the first of field
 * `field`, or the first of the request. Needs @fastify/multipart. Missing -> 400, unless
 * `{ required: false }` (then `undefined`).
 */
export const UploadedFile = uploadDecorator('file', 'UploadedFile')

/**
 * Every uploaded file (of field `field` if given), in the order they came. Needs
 * @fastify/multipart. None -> 400, unless `{ required: false }` (then `[]`).
 */
export const UploadedFiles = uploadDecorator('files', 'UploadedFiles')
