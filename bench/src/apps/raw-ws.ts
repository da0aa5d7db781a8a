import Fastify, { type FastifyInstance } from 'fastify'
import { WebSocketServer, type RawData } from 'ws'
import { WS_ECHO_EVENT } from '../scenarios.js'

// The ws-echo scenario written with `ws` by hand: a WebSocketServer taking the upgrades of
// Fastify's own server, parsing each JSON frame { event, data } and dispatching by event.

export async function buildWsApp (): Promise<FastifyInstance> {
  const app = Fastify()
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 })
  const handlers: Record<string, (data: unknown) => unknown> = { [WS_ECHO_EVENT]: (data) => data }
  wss.on('connection', (ws) => {
    ws.on('message', (raw: RawData) => {
      let message: { event: string, data: unknown }
      try {
        message = JSON.parse(raw.toString())
      } catch {
        return
      }
      const handler = handlers[message?.event]
      if (handler !== undefined) ws.send(JSON.stringify(handler(message.data)))
    })
  })
  app.server.on('upgrade', (request, socket, head) => {
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  })
  app.addHook('preClose', (done) => { for (const ws of wss.clients) ws.terminate(); wss.close(() => done()) })
  await app.ready()
  return app
}
