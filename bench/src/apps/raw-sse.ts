import type { FastifyReply, FastifyRequest } from 'fastify'
import { events } from './sse-source.js'

// The SSE scenarios' route written by hand, as a careful Fastify route writes an Observable
// source: the reply hijacked, the socket tuned for a long stream, the headers NestJS sends (in
// the plugin's order), then the empty line with the first events; the events of a synchronous
// burst formatted together and written once; the stream ended when the source completes, and
// the source let go of when the client leaves first.

const eventHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'private, no-cache, no-store, must-revalidate, max-age=0, no-transform',
  pragma: 'no-cache',
  expires: '0',
  'x-accel-buffering': 'no',
  connection: 'keep-alive'
}

export function streamEvents (request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack()
  // As the plugin does it: fastify.inject()'s socket has none of these.
  const socket = request.raw.socket
  socket?.setKeepAlive?.(true)
  socket?.setNoDelay?.(true)
  socket?.setTimeout?.(0)
  const res = reply.raw
  res.writeHead(200, eventHeaders)
  let burst = '\n'
  let id = 0
  let open = true
  const flush = (): void => {
    if (burst === '' || !open) return
    res.write(burst)
    burst = ''
  }
  queueMicrotask(flush)
  const subscription = events().subscribe({
    next (event) {
      if (burst === '') queueMicrotask(flush)
      burst += `id: ${++id}\ndata: ${JSON.stringify(event.data)}\n\n`
    },
    error () {
      flush()
      res.end(`event: error\nid: ${++id}\ndata: Internal server error\n\n`)
      open = false
    },
    complete () {
      flush()
      res.end()
      open = false
    }
  })
  if (open) res.once('close', () => { open = false; subscription.unsubscribe() })
}
