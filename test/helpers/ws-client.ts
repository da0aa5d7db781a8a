import { createServer } from 'node:net'
import { WebSocket } from 'ws'
import type { FastifyInstance } from 'fastify'
import type { TestContext } from 'node:test'

/** A real `ws` client over loopback: `send(event, data)`, then `next()` gives each JSON message in order. */
export interface WsClient {
  socket: WebSocket
  send: (event: string, data?: unknown) => void
  next: () => Promise<any>
  close: () => Promise<void>
}

/** A loopback port nothing listens on now (for a gateway's own port, or a Redis server). */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export async function listening (app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

export async function wsClient (t: TestContext, port: number, path = '/'): Promise<WsClient> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`)
  const queue: unknown[] = []
  const waiting: Array<(value: unknown) => void> = []
  socket.on('message', (raw) => {
    const value = JSON.parse(raw.toString())
    const wake = waiting.shift()
    if (wake) wake(value)
    else queue.push(value)
  })
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject) })
  const close = async (): Promise<void> => {
    if (socket.readyState === WebSocket.CLOSED) return
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.close()
    await closed
  }
  t.after(close)
  return {
    socket,
    send: (event, data) => socket.send(JSON.stringify({ event, data })),
    next: () => queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)),
    close
  }
}
