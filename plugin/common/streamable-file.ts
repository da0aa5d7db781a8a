import { Readable } from 'node:stream'
import { types } from 'node:util'
import type { FastifyReply } from 'fastify'
import type { StreamableFileOptions } from '../../types/index.js'
import { kStreamableFile } from '../util/symbols.js'
import { isThenable } from '../util/thenable.js'

/**
 * A file to send as a stream, with its headers: return one from a handler (or an interceptor)
 * and the reply streams it with `Content-Type` (default `application/octet-stream`),
 * `Content-Disposition` and `Content-Length` where known, each unless the reply already has it.
 */
export class StreamableFile {
  readonly #stream: Readable
  readonly options: StreamableFileOptions

  constructor (bufferOrReadStream: Uint8Array | Readable, options: StreamableFileOptions = {}) {
    this.options = { ...options }
    if (types.isUint8Array(bufferOrReadStream)) {
      const bytes = Buffer.from(bufferOrReadStream.buffer, bufferOrReadStream.byteOffset, bufferOrReadStream.byteLength)
      // Pushed when first read, so an unsent file holds no stream state beyond the bytes.
      this.#stream = new Readable({ read () { this.push(bytes); this.push(null) } })
      this.options.length ??= bytes.byteLength
    } else if (typeof (bufferOrReadStream as Readable | undefined)?.pipe === 'function') {
      this.#stream = bufferOrReadStream
    } else {
      throw new TypeError(`new StreamableFile() takes a Buffer, a Uint8Array or a readable stream, given ${bufferOrReadStream === null ? 'null' : typeof bufferOrReadStream}.`)
    }
  }

  getStream (): Readable {
    return this.#stream
  }

  getHeaders (): { type: string, disposition?: string, length?: number } {
    const { type = 'application/octet-stream', disposition, length } = this.options
    return { type, disposition, length }
  }
}

// A brand on the prototype: telling a StreamableFile from any other value costs a property
// read, less than `instanceof`, on every route whose handler returns an object; and, being a
// registered symbol, it also tells one made with the package's other build (CommonJS or ESM).
Object.defineProperty(StreamableFile.prototype, kStreamableFile, { value: true })

/** Whether a handler's value is a StreamableFile (or of a subclass). */
export function isStreamableFile (value: object): value is StreamableFile {
  return (value as Record<symbol, unknown>)[kStreamableFile] === true
}

/** Sets the file's headers the reply does not have yet and gives the stream for Fastify to send. */
export function streamOf (file: StreamableFile, reply: FastifyReply): Readable {
  const { type, disposition, length } = file.getHeaders()
  if (!reply.hasHeader('content-type')) reply.header('content-type', type)
  const ownDisposition = disposition !== undefined && !reply.hasHeader('content-disposition')
  if (ownDisposition) reply.header('content-disposition', disposition)
  if (length !== undefined && !reply.hasHeader('content-length')) reply.header('content-length', String(length))
  const stream = file.getStream()
  // Fastify copies the reply's headers onto the raw response before piping. A stream that
  // fails before its first byte is answered by the error handler: drop the file's headers
  // first (this listener runs before Fastify's), so the error body is not sent as the file.
  stream.once('error', () => {
    if (reply.raw.headersSent) return
    reply.removeHeader('content-type')
    reply.removeHeader('content-length')
    if (ownDisposition) reply.removeHeader('content-disposition')
  })
  return stream
}

/** What to hand Fastify for a handler's value: a StreamableFile's stream, anything else as it is. */
export function payloadOf (value: unknown, reply: FastifyReply): unknown {
  return typeof value === 'object' && value !== null && isStreamableFile(value) ? streamOf(value, reply) : value
}

type Settled = ((value: unknown) => unknown) | null | undefined
type Finish = (value: unknown, reply: FastifyReply) => unknown

/**
 * A handler's pending value as Fastify gets it: what it settles to, a StreamableFile as its
 * stream. Fastify adds one reaction to a handler's promise; the file is told apart inside that
 * one, where `promise.then((value) => payloadOf(value, reply))` would cost a promise and a
 * microtask of its own on every request. Anyone else (an `onRoute` wrapper) gets a promise.
 * `finish` replaces `payloadOf` where the route shapes its answer (interceptors' Observables,
 * views, redirects); what it gives may itself be pending.
 */
export class PendingPayload implements PromiseLike<unknown> {
  readonly #value: PromiseLike<unknown>
  readonly #reply: FastifyReply
  readonly #finish: Finish

  constructor (value: PromiseLike<unknown>, reply: FastifyReply, finish: Finish = payloadOf) {
    this.#value = value
    this.#reply = reply
    this.#finish = finish
  }

  then (fulfilled?: Settled, rejected?: Settled): Promise<any> {
    const reply = this.#reply
    const finish = this.#finish
    if (typeof fulfilled !== 'function') return this.#promise().then(fulfilled, rejected)
    return Promise.resolve(this.#value).then((value) => {
      let payload: unknown
      try {
        payload = finish(value, reply)
      } catch (error) {
        // As when the promise of the payload rejects.
        if (typeof rejected !== 'function') throw error
        return rejected(error)
      }
      return isThenable(payload) ? Promise.resolve(payload).then(fulfilled, rejected) : fulfilled(payload)
    }, rejected)
  }

  catch (rejected?: Settled): Promise<unknown> {
    return this.#promise().catch(rejected)
  }

  finally (done?: (() => void) | null): Promise<unknown> {
    return this.#promise().finally(done)
  }

  #promise (): Promise<unknown> {
    return Promise.resolve(this.#value).then((value) => this.#finish(value, this.#reply))
  }
}
