import { Readable } from 'node:stream'
import { STATUS_CODES } from 'node:http'
import type { FastifyReply } from 'fastify'
import type { ObservableLike } from '../../types/index.js'
import type { SseDefinition } from '../decorators/sse.js'
import { isHttpException } from '../common/exceptions.js'
import { ERR_INVALID_EVENT_STREAM } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { isObservable } from './results.js'
import { formatEvent, type Numbering } from './sse-format.js'

// An @Sse() route's answer: a readable stream of events that Fastify's reply sends as any
// stream (its hooks, headers and status, closed with the connection). An Observable pushes its
// events (queued while the client is slow, up to a limit); an async iterable is pulled only as
// fast as the client reads.

// The headers NestJS sends with an event stream; they win over the reply's own of those names.
const eventHeaders: Array<[string, string]> = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'private, no-cache, no-store, must-revalidate, max-age=0, no-transform'],
  ['pragma', 'no-cache'],
  ['expires', '0'],
  ['x-accel-buffering', 'no']
]

interface Unsubscribable { unsubscribe: () => void }
type Settle = (stream: Readable | undefined) => void

function isAsyncIterable (value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

/** What the client is sent in place of an error thrown once the stream has begun (NestJS's rules). */
function errorMessage (error: unknown): string {
  if (!isHttpException(error)) return 'Internal server error'
  return error.getResponse() instanceof Error ? STATUS_CODES[error.getStatus()] ?? 'Error' : String((error as unknown as Error).message)
}

class EventStream extends Readable {
  readonly #reply: FastifyReply
  readonly #max: number
  readonly #numbering: Numbering = { last: 0 }
  #subscription: Unsubscribable | undefined
  #iterator: AsyncIterator<unknown> | undefined
  #pulling = false
  #done = false
  #burst = ''
  // Until the stream is handed to the reply (#committed), a failure still goes to the exception
  // filters: thrown when it came while the producer started, else through the pending promise.
  #committed = false
  #failed: { error: unknown } | undefined
  #resolve: Settle | undefined
  #reject: ((error: unknown) => void) | undefined
  #listening = false
  readonly #onClose = (): void => { if (!this.#done) this.destroy() }

  constructor (reply: FastifyReply, max: number) {
    // Events stay strings up to the socket (no Buffer copy of each), and what waits is counted
    // in characters, as NestJS counts it.
    super({ encoding: 'utf8' })
    this.#reply = reply
    this.#max = max
  }

  /** The stream when its first event came while the producer started (most Observables), else a promise of it. */
  start (source: ObservableLike | AsyncIterable<unknown>): Readable | Promise<Readable | undefined> {
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
      this.push('\n')
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
      this.push(text)
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
    if (this.push(text)) return
    const max = this.#max
    if (max > 0 && this.readableLength > max) {
      this.#reply.log.warn(`An event stream client is not reading: ${this.readableLength} characters of events wait for it, more than the ${max} allowed (@Sse() option maxPendingDataLength); its connection is closed.`)
      this.#reply.raw.destroy()
      this.destroy()
    }
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
    this.push(formatEvent({ type: 'error', data: errorMessage(error) }, this.#numbering))
    this.#end()
  }

  #end (): void {
    if (this.#done || this.destroyed) return
    this.#commit()
    this.#done = true
    this.#release()
    this.#flush()
    this.push(null)
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
    // Read on while the stream wants more; else _read() asks again.
    if (this.readableLength < this.readableHighWaterMark) this.#pull()
  }

  readonly #stepFailed = (error: unknown): void => {
    this.#pulling = false
    this.#iterator = undefined
    this.#fail(error)
  }

  override _read (): void {
    this.#pull()
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

  override _destroy (error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#done) {
      this.#done = true
      this.#release()
    }
    // The client left before the stream was handed over: nothing is left to send.
    this.#commit()
    callback(error)
  }
}

/**
 * What an @Sse() handler gave, as a stream for the reply: at once when its first event came while
 * the producer started, else a promise of it, settled once the first event is there or on the
 * next turn; a failure before then is thrown or rejects, for the exception filters. `name`: `Class.method`, for the error a wrong result gets.
 */
export function eventStream (result: unknown, reply: FastifyReply, definition: SseDefinition, name: string): Readable | Promise<Readable | undefined> {
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
