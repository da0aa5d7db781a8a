import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket, WebSocketServer } from 'ws'
import type { GatewayMetadata, WebSocketAdapter, WsMessageHandler } from '../../types/websockets.js'
import { optionalPeer } from '../util/peers.js'
import { isThenable } from '../util/thenable.js'
import { isObservable } from '../pipeline/results.js'
import { ERR_INVALID_OPTIONS, ERR_MISSING_PEER } from '../util/errors.js'

const OPEN = 1
/** A client's handlers running at once; past it its socket stops being read, and a flood waits in its own TCP window. */
const inFlightLimit = 32
const defaultMaxPayload = 1024 * 1024

interface Logger { error: (...args: any[]) => void, debug: (...args: any[]) => void }
type Server$ = WebSocketServer & { path?: string }

interface HttpEntry { server: Server, paths: Map<string, Server$>, listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void, own: boolean }

function loadWs (): typeof import('ws') {
  return optionalPeer('ws', (cause) => new ERR_MISSING_PEER('WebSocket gateways served by the plugin\'s own adapter need the "ws" package: npm install ws', { cause }))
}

function pathOf (url: string | undefined): string {
  const end = url?.indexOf('?') ?? -1
  const path = end === -1 ? url ?? '/' : url!.slice(0, end)
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

function normalize (path: string | undefined): string {
  return pathOf(path === undefined || path === '' ? '/' : (path.startsWith('/') ? path : `/${path}`))
}

/**
 * The plugin's adapter over `ws`, NestJS's WebSocketAdapter seam: messages are JSON
 * `{ "event": name, "data": ... }`; what a handler returns is sent as JSON (a `WsResponse` as
 * `{ event, data }`). Port 0 is the app's own HTTP server: upgrades are taken by path on it.
 */
export class FastifyWsAdapter implements WebSocketAdapter<WebSocketServer, WebSocket, GatewayMetadata> {
  /** The app's HTTP server (port 0); set by the plugin when not given. */
  httpServer: Server | undefined
  logger: Logger | undefined
  readonly #http = new Map<number, HttpEntry>()

  constructor (httpServer?: Server) {
    this.httpServer = httpServer
  }

  create (port: number, options: GatewayMetadata = {}): WebSocketServer {
    const { path, namespace, server, maxPayload = defaultMaxPayload, cors, transports, ...rest } = options
    if (namespace !== undefined) {
      throw new ERR_INVALID_OPTIONS(`@WebSocketGateway() option "namespace" (${String(namespace)}) needs socket.io: serve the gateway with IoAdapter (@nestjs/platform-socket.io), or give it a path instead.`)
    }
    const { WebSocketServer } = loadWs()
    const entry = this.#entry(port)
    const wss: Server$ = new WebSocketServer({ noServer: true, maxPayload, ...rest })
    wss.path = normalize(path)
    if (entry.paths.has(wss.path)) throw new ERR_INVALID_OPTIONS(`Two WebSocket servers on port ${port} and path ${wss.path}: give the gateways different paths, or one gateway.`)
    entry.paths.set(wss.path, wss)
    // A client's protocol errors (an oversized frame, bad framing) close that client; they are its own doing, not the app's.
    wss.on('connection', (ws) => ws.on('error', (error) => this.logger?.debug({ err: error }, 'WebSocket client error; the client is closed')))
    return wss
  }

  #entry (port: number): HttpEntry {
    let entry = this.#http.get(port)
    if (entry !== undefined) return entry
    const own = port !== 0
    const server = own ? createServer() : this.httpServer
    if (server === undefined) throw new ERR_INVALID_OPTIONS('The WebSocket adapter has no HTTP server for port 0: give it the app\'s server, new FastifyWsAdapter(app.server).')
    const paths = new Map<string, Server$>()
    const listener = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const wss = paths.get(pathOf(req.url))
      if (wss !== undefined) {
        wss.handleUpgrade(req, socket, head, (ws) => { wss.emit('connection', ws, req) })
        return
      }
      // Another listener (socket.io, @fastify/websocket) may take it; alone, the adapter answers.
      if (server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    }
    server.on('upgrade', listener)
    if (own) server.listen(port)
    this.#http.set(port, entry = { server, paths, listener, own })
    return entry
  }

  bindClientConnect (server: WebSocketServer, callback: Function): void {
    server.on('connection', callback as (...args: any[]) => void)
  }

  bindClientDisconnect (client: WebSocket, callback: Function): void {
    client.once('close', callback as (...args: any[]) => void)
  }

  closeClient (client: WebSocket): void {
    client.terminate()
  }

  bindMessageHandlers (client: WebSocket, handlers: WsMessageHandler[], transform: (data: any) => any): void {
    const byEvent = new Map<unknown, WsMessageHandler>()
    for (const handler of handlers) byEvent.set(handler.message, handler)
    let inFlight = 0
    const send = (response: unknown): void => {
      if (response === undefined || response === null || client.readyState !== OPEN) return
      let text: string
      try {
        text = JSON.stringify(response)
      } catch (error) {
        this.logger?.error({ err: error }, 'A WebSocket answer could not be serialized to JSON; not sent')
        return
      }
      client.send(text)
    }
    // Past the limit the socket is paused; what it had read already waits here, in order.
    const waiting: Buffer[] = []
    const room = (): boolean => inFlight < inFlightLimit
    const done = (): void => {
      inFlight--
      while (waiting.length > 0 && room()) handle(waiting.shift()!)
      if (waiting.length === 0 && client.isPaused) client.resume()
    }
    const handle = (raw: Buffer): void => {
      let message: { event?: unknown, data?: unknown }
      try {
        message = JSON.parse(raw.toString())
      } catch {
        return
      }
      const handler = typeof message === 'object' && message !== null ? byEvent.get(message.event) : undefined
      if (handler === undefined) return
      const result = handler.callback(message.data, message.event)
      // A value now (a handler without enhancers that returned one) goes out now; a promise or an
      // Observable through transform(), counted in flight until it ends.
      if (!isThenable(result) && !isObservable(result)) return send(result)
      inFlight++
      transform(result).subscribe({ next: send, error: done, complete: done })
    }
    client.on('message', (raw: Buffer, isBinary: boolean) => {
      // Garbage (binary, not JSON, no known event) costs its sender nothing but the frame.
      if (isBinary) return
      if (room()) return handle(raw)
      waiting.push(raw)
      if (!client.isPaused) client.pause()
    })
  }

  async close (server: WebSocketServer): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const client of server.clients) client.terminate()
    await closed
  }

  async dispose (): Promise<void> {
    const closing: Array<Promise<void>> = []
    for (const { server, listener, own } of this.#http.values()) {
      server.off('upgrade', listener)
      if (own) closing.push(new Promise((resolve) => server.close(() => resolve())))
    }
    this.#http.clear()
    await Promise.all(closing)
  }
}
