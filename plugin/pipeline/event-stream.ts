import { EventEmitter } from 'node:events'
import { STATUS_CODES } from 'node:http'
import type { Writable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { ObservableLike } from '../../types/index.js'
import type { SseDefinition } from '../decorators/sse.js'
import { isHttpException } from '../common/exceptions.js'
import { ERR_INVALID_EVENT_STREAM } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { isObservable } from './results.js'
import { formatEvent, type Numbering } from './sse-format.js'

// An @Sse() route's answer: a source of events that Fastify's reply sends as any stream (its
// hooks, headers and status, closed with the connection). It is no Readable: Fastify pipes it
// into the response (or an onSend hook into its own stream), and it writes its events there
// itself, without a Readable's buffer, flowing state and 'data' events in between (their cost:
// bench/README.md). An Observable pushes its events (they wait while the client is slow, up to a
// limit); an async iterable is pulled only as fast as the client reads.

// The headers NestJS sends with an event stream; they win over the reply's own of those names.
const eventHeaders: Array<[string, string]> = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'private, no-cache, no-store, must-revalidate, max-age=0, no-transform'],
  ['pragma', 'no-cache'],
  ['expires', '0'],
  ['x-accel-buffering', 'no']
]

// What an async iterable's events may fill before the stream is piped anywhere (a Readable's default).
const highWaterMark = 16 * 1024

interface Unsubscribable { unsubscribe: () => void }
type Settle = (stream: EventStream | undefined) => void

function isAsyncIterable (value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

/** What the client is sent in place of an error thrown once the stream has begun (NestJS's rules). */
function errorMessage (error: unknown): string {
  if (!isHttpException(error)) return 'Internal server error'
  return error.getResponse() instanceof Error ? STATUS_CODES[error.getStatus()] ?? 'Error' : String((error as unknown as Error).message)
}

// 'end' then 'close', a tick after the last write as a Readable emits them: whoever pipes the
// stream (Node's pipeline) listens for 'end' only once pipe() has returned.
function emitEnd (stream: EventStream): void {
  stream.emit('end')
  stream.emit('close')
}

function emitClose (stream: EventStream, error: Error | undefined): void {
  if (error !== undefined && stream.listenerCount('error') > 0) stream.emit('error', error)
  stream.emit('close')
}

export class EventStream extends EventEmitter {
  // What Node's stream helpers (`finished`, `pipeline`) read on a readable source.
  readable = true
  destroyed = false
  readonly #reply: FastifyReply
  readonly #max: number
  readonly #numbering: Numbering = { last: 0 }
  #subscription: Unsubscribable | undefined
  #iterator: AsyncIterator<unknown> | undefined
  #pulling = false
  #done = false
  #burst = ''
  // Where the events go once piped, and what came before that.
  #dest: Writable | undefined
  #endDest = true
  #pending = ''
  // The destination asked to wait for 'drain'.
  #blocked = false
  // Until the stream is handed to the reply (#committed), a failure still goes to the exception
  // filters: thrown when it came while the producer started, else through the pending promise.
  #committed = false
  #failed: { error: unknown } | undefined
  #resolve: Settle | undefined
  #reject: ((error: unknown) => void) | undefined
  #listening = false
  readonly #onClose = (): void => { if (!this.#done) this.destroy() }

  constructor (reply: FastifyReply, max: number) {
    super()
    this.#reply = reply
    this.#max = max
  }

  /** The stream when its first event came while the producer started (most Observables), else a promise of it. */
  start (source: ObservableLike | AsyncIterable<unknown>): EventStream | Promise<EventStream | undefined> {
    // Headers first, then an empty line, as NestJS sends them: for an Observable, with the events
    // of its first burst.
    if (isObservable(source)) {
      this.#burst = '\n'
      const subscription = source.subscribe({ next: (value) => this.#event(value), error: (error) => this.#fail(error), complete: () => this.#end() })
      if (typeof (subscription as Unsubscribable | undefined)?.unsubscribe === 'function') {
        // Ended already (a synchronous source, or the client gone while it subscribed)?
        if (this.destroyed || this.#done) (subscription as Unsubscribable).unsubscribe()
        else this.#subscription = subscription as Unsubscribable
      }
      // What it gave while it subscribed (or the empty line alone) goes out in one write.
      if (this.#burst !== '') queueMicrotask(this.#flush)
    } else {
      this.#pending = '\n'
      this.#iterator = source[Symbol.asyncIterator]()
      this.#pull()
    }
    // The client leaving can be heard of only from the next turn on: a source that ended while
    // it was subscribed needs no ear for it.
    if (!this.#done && !this.destroyed) {
      this.#listening = true
      this.#reply.raw.once('close', this.#onClose)
    }
    const failed = this.#failed
    if (failed !== undefined) {
      this.#failed = undefined
      throw failed.error
    }
    if (this.#committed) return this
    // Headers go out on the next turn when no event has come by then.
    return new Promise((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
      setImmediate(this.#commit)
    })
  }

  /** Fastify's reply (or an onSend hook's stream) takes the events from here on; `end: false` leaves `dest` open. */
  pipe<T extends Writable> (dest: T, options?: { end?: boolean }): T {
    if (this.#dest !== undefined) throw new Error('An event stream is sent to one destination only; it was piped twice.')
    this.#dest = dest
    this.#endDest = options?.end !== false
    const pending = this.#pending
    this.#pending = ''
    if (pending !== '' && !this.destroyed) this.#write(pending)
    if (this.#done && !this.destroyed) this.#finish()
    else if (!this.#blocked) this.#pull()
    return dest
  }

  destroy (error?: Error): this {
    if (this.destroyed) return this
    this.destroyed = true
    this.readable = false
    this.#unblock()
    if (!this.#done) {
      this.#done = true
      this.#release()
    }
    // The client left before the stream was handed over: nothing is left to send.
    this.#commit()
    process.nextTick(emitClose, this, error)
    return this
  }

  readonly #commit = (): void => {
    if (this.#committed) return
    this.#committed = true
    const resolve = this.#resolve
    if (resolve === undefined) return
    this.#resolve = this.#reject = undefined
    resolve(this.destroyed ? undefined : this)
  }

  #event (value: unknown): void {
    if (this.#done || this.destroyed) return
    let text: string
    try {
      text = formatEvent(value, this.#numbering)
    } catch (error) { // JSON.stringify of a BigInt or a cycle
      this.#fail(error)
      return
    }
    this.#commit()
    if (this.#iterator !== undefined) {
      this.#write(text)
      return
    }
    // An Observable's events that come in one burst (a synchronous loop, a batch) are written
    // together: one write instead of one each.
    if (this.#burst === '') queueMicrotask(this.#flush)
    this.#burst += text
  }

  readonly #flush = (): void => {
    const text = this.#burst
    if (text === '' || this.destroyed) return
    this.#burst = ''
    this.#write(text)
  }

  // Hands `text` on, or keeps it until the stream is piped. An async iterable waits for a full
  // destination to drain before it is read further; an Observable cannot wait, and loses a
  // client that falls behind it by more than the limit.
  #write (text: string): void {
    const dest = this.#dest
    if (dest === undefined) this.#pending += text
    else if (dest.write(text)) return
    if (this.#iterator !== undefined) {
      if (dest !== undefined && !this.#blocked) {
        this.#blocked = true
        dest.once('drain', this.#drained)
      }
      return
    }
    const waiting = dest === undefined ? this.#pending.length : dest.writableLength
    const max = this.#max
    if (max > 0 && waiting > max) {
      this.#reply.log.warn(`An event stream client is not reading: ${waiting} characters of events wait for it, more than the ${max} allowed (@Sse() option maxPendingDataLength); its connection is closed.`)
      this.#reply.raw.destroy()
      this.destroy()
    }
  }

  readonly #drained = (): void => {
    this.#blocked = false
    this.#pull()
  }

  // Stops waiting for 'drain': the stream has ended or is gone.
  #unblock (): void {
    if (!this.#blocked) return
    this.#blocked = false
    this.#dest!.removeListener('drain', this.#drained)
  }

  #fail (error: unknown): void {
    if (this.#done || this.destroyed) return
    if (!this.#committed) {
      this.#committed = true
      this.#done = true
      this.#release()
      const reject = this.#reject
      if (reject === undefined) {
        this.#failed = { error }
        return
      }
      this.#resolve = this.#reject = undefined
      reject(error)
      return
    }
    this.#reply.log.error({ err: error }, 'An event stream failed')
    this.#flush()
    this.#write(formatEvent({ type: 'error', data: errorMessage(error) }, this.#numbering))
    this.#end()
  }

  #end (): void {
    if (this.#done || this.destroyed) return
    this.#commit()
    this.#done = true
    this.#release()
    this.#flush()
    if (this.#dest !== undefined && !this.destroyed) this.#finish()
  }

  // Every event written: the destination ended (unless piped with `end: false`), then 'end'.
  #finish (): void {
    this.readable = false
    this.#unblock()
    if (this.#endDest) this.#dest!.end()
    process.nextTick(emitEnd, this)
  }

  #pull (): void {
    const iterator = this.#iterator
    if (iterator === undefined || this.#pulling || this.#done || this.destroyed) return
    this.#pulling = true
    let step: Promise<IteratorResult<unknown>>
    try {
      step = Promise.resolve(iterator.next())
    } catch (error) {
      this.#pulling = false
      this.#fail(error)
      return
    }
    step.then(this.#step, this.#stepFailed)
  }

  readonly #step = (result: IteratorResult<unknown>): void => {
    this.#pulling = false
    if (result.done === true) {
      this.#iterator = undefined
      this.#end()
      return
    }
    this.#event(result.value)
    // Read on while the client takes the events: a full destination says so with 'drain', and
    // pipe() asks once there is one.
    if (this.#dest !== undefined ? !this.#blocked : this.#pending.length < highWaterMark) this.#pull()
  }

  readonly #stepFailed = (error: unknown): void => {
    this.#pulling = false
    this.#iterator = undefined
    this.#fail(error)
  }

  // The producer is let go of on every way out: completion, failure, the client leaving.
  #release (): void {
    if (this.#listening) {
      this.#listening = false
      this.#reply.raw.removeListener('close', this.#onClose)
    }
    const subscription = this.#subscription
    const iterator = this.#iterator
    this.#subscription = this.#iterator = undefined
    try {
      subscription?.unsubscribe()
      // A generator's `finally` runs once it reaches its next `yield`.
      if (iterator !== undefined && typeof iterator.return === 'function') Promise.resolve(iterator.return()).catch(this.#logTeardown)
    } catch (error) {
      this.#logTeardown(error)
    }
  }

  readonly #logTeardown = (error: unknown): void => { this.#reply.log.error({ err: error }, 'An event stream\'s producer failed as it was torn down') }
}

/**
 * What an @Sse() handler gave, as a stream for the reply: at once when its first event came while
 * the producer started, else a promise of it, settled once the first event is there or on the
 * next turn; a failure before then is thrown or rejects, for the exception filters. `name`: `Class.method`, for the error a wrong result gets.
 */
export function eventStream (result: unknown, reply: FastifyReply, definition: SseDefinition, name: string): EventStream | Promise<EventStream | undefined> {
  if (!isObservable(result) && !isAsyncIterable(result)) {
    throw new ERR_INVALID_EVENT_STREAM(`${name} is an @Sse() route and returned ${describe(result)}: return an Observable or an async iterable of MessageEvent ({ data, id, type, retry }).`)
  }
  for (let i = 0; i < eventHeaders.length; i++) reply.header(eventHeaders[i][0], eventHeaders[i][1])
  const req = reply.request.raw
  if (req.httpVersionMajor === 1) {
    // Hop-by-hop, so HTTP/1 only; the socket is this request's alone there, and is tuned for a
    // long stream of small writes.
    reply.header('connection', 'keep-alive')
    const socket = req.socket
    socket?.setKeepAlive?.(true)
    socket?.setNoDelay?.(true)
    socket?.setTimeout?.(0)
  }
  return new EventStream(reply, definition.maxPendingDataLength).start(result)
}

// Its consumer is gone: a failing teardown has no one to tell.
const ignore = (): void => {}

/** An async iterable as an Observable-like, so that interceptors see each of its events. */
export function observed (value: unknown): unknown {
  if (isObservable(value) || !isAsyncIterable(value)) return value
  return {
    subscribe (observer: { next: (value: unknown) => void, error: (error: unknown) => void, complete: () => void }) {
      const iterator = value[Symbol.asyncIterator]()
      let closed = false
      const step = (): void => {
        iterator.next().then((result) => {
          if (closed) return
          if (result.done === true) { closed = true; observer.complete(); return }
          observer.next(result.value)
          step()
        }, (error) => { if (!closed) { closed = true; observer.error(error) } })
      }
      step()
      return { unsubscribe () { if (!closed) { closed = true; Promise.resolve(iterator.return?.()).catch(ignore) } } }
    }
  }
}
