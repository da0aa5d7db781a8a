import type { UploadedFileOptions } from '../../types/index.js'
import { paramDecorator, isPipe, type PipeEntry } from './params.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import type { FastifyRequest } from 'fastify'
import type { UploadedFileInfo } from '../../types/index.js'
import type { ParamDefinition } from './params.js'
import { BadRequestException } from '../common/exceptions.js'

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

const kUploads = Symbol('fdp.uploads')

// What @fastify/multipart (an optional peer) adds to requests; typed here so it is never imported.
interface MultipartPart {
  type: 'file' | 'field'
  fieldname: string
  filename: string
  encoding: string
  mimetype: string
  value?: unknown
  toBuffer?: () => Promise<Buffer>
}
type MultipartRequest = FastifyRequest & {
  isMultipart?: () => boolean
  parts: () => AsyncIterable<MultipartPart>
  [kUploads]?: UploadedFileInfo[]
}

/** Whether a parameter takes uploaded files (@UploadedFile(s)). */
export function isUpload (param: ParamDefinition): boolean {
  return param.kind === 'file' || param.kind === 'files'
}

function addField (fields: Record<string, unknown>, name: string, value: unknown): void {
  const current = fields[name]
  if (current === undefined) fields[name] = value
  else if (Array.isArray(current)) current.push(value)
  else fields[name] = [current, value]
}

async function fileInfo (part: MultipartPart): Promise<UploadedFileInfo> {
  const { fieldname, filename, encoding, mimetype } = part
  return { fieldname, filename, encoding, mimetype, buffer: await part.toBuffer!() }
}

// Reads every part once: files into memory (multipart's limits apply: over fileSize -> 413),
// other fields into `request.body`, so @Body() reads them.
async function readUploads (request: MultipartRequest): Promise<UploadedFileInfo[]> {
  const files: UploadedFileInfo[] = []
  if (request.isMultipart?.() !== true) return files
  if (request.body !== undefined && request.body !== null) {
    // attachFieldsToBody: true has already read the parts into the body.
    for (const value of Object.values(request.body as Record<string, unknown>)) {
      for (const part of (Array.isArray(value) ? value : [value]) as MultipartPart[]) {
        if (part?.type === 'file' && typeof part.toBuffer === 'function') files.push(await fileInfo(part))
      }
    }
    return files
  }
  const fields: Record<string, unknown> = {}
  for await (const part of request.parts()) {
    if (part.type === 'file') files.push(await fileInfo(part))
    else addField(fields, part.fieldname, part.value)
  }
  request.body = fields
  return files
}

function missing (param: ParamDefinition): string {
  const what = param.kind === 'file' ? 'File' : 'At least one file'
  return param.data === undefined ? `${what} is required` : `${what} is required in field "${param.data}"`
}

/**
 * A route-level preHandler (after guards and schema validation, before interceptors and pipes)
 * that reads the upload once; for routes that take files.
 */
export function buildUploadHook (params: ParamDefinition[]) {
  const uploads = params.filter(isUpload)
  const extractors = uploads.map((param) => [param, uploadExtractor(param)] as const)
  return async function fdpUploads (request: FastifyRequest): Promise<void> {
    const req = request as MultipartRequest
    req[kUploads] = await readUploads(req)
    for (const [param, extract] of extractors) {
      if (!param.required) continue
      const value = extract(request)
      if (value === undefined || (Array.isArray(value) && value.length === 0)) throw new BadRequestException(missing(param))
    }
  }
}

/** The parameter's value from what the upload hook read. */
export function uploadExtractor (param: ParamDefinition): (request: FastifyRequest) => UploadedFileInfo | UploadedFileInfo[] | undefined {
  const field = param.data
  if (param.kind === 'file') {
    return field === undefined
      ? (request) => (request as MultipartRequest)[kUploads]?.[0]
      : (request) => (request as MultipartRequest)[kUploads]?.find((file) => file.fieldname === field)
  }
  return field === undefined
    ? (request) => (request as MultipartRequest)[kUploads] ?? []
    : (request) => ((request as MultipartRequest)[kUploads] ?? []).filter((file) => file.fieldname === field)
}
