// Scale-out as NestJS documents it: IoAdapter with socket.io's Redis adapter, a real Redis server,
// two application instances whose clients hear each other's broadcasts.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import Fastify from 'fastify'
import { IoAdapter } from '@nestjs/platform-socket.io'
import { createAdapter } from '@socket.io/redis-adapter'
import { createClient } from 'redis'
import { io, type Socket as ClientSocket } from 'socket.io-client'
import { MessageBody, Module, SubscribeMessage, WebSocketGateway, WebSocketServer, decoratorPlugin } from '../../plugin/index.js'
import { freePort, listening } from '../helpers/ws-client.js'

type Cleanup = () => unknown
/** Runs when the test ends, last given first: the clients, the apps, their Redis connections, then Redis. */
function cleanups (t: any): (cleanup: Cleanup) => void {
  const list: Cleanup[] = []
  t.after(async () => { for (const cleanup of list.reverse()) await cleanup() })
  return (cleanup) => { list.push(cleanup) }
}

/** redis-server on a free loopback port, without persistence. */
async function startRedis (after: (cleanup: Cleanup) => void): Promise<string> {
  const port = await freePort()
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] })
  after(async () => {
    if (server.exitCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    server.once('error', reject)
    server.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
    server.stdout!.on('data', (chunk) => {
      output += chunk
      if (output.includes('Ready to accept connections')) resolve()
    })
  })
  return `redis://127.0.0.1:${port}`
}

// NestJS's documented RedisIoAdapter, as written for NestJS.
class RedisIoAdapter extends IoAdapter {
  private adapterConstructor: ReturnType<typeof createAdapter> | undefined
  readonly clients: Array<{ quit: () => Promise<unknown> }> = []

  async connectToRedis (url: string): Promise<void> {
    const pubClient = createClient({ url })
    const subClient = pubClient.duplicate()
    this.clients.push(pubClient, subClient)
    await Promise.all([pubClient.connect(), subClient.connect()])
    this.adapterConstructor = createAdapter(pubClient, subClient)
  }

  createIOServer (port: number, options?: any): any {
    const server = super.createIOServer(port, options)
    server.adapter(this.adapterConstructor!)
    return server
  }
}

@WebSocketGateway()
class ChatGateway {
  @WebSocketServer() server: any

  @SubscribeMessage('shout')
  shout (@MessageBody() text: string) {
    this.server.emit('heard', text)
    return 'sent'
  }
}

@Module({ providers: [ChatGateway] })
class ChatModule {}

async function instance (after: (cleanup: Cleanup) => void, url: string): Promise<number> {
  const app = Fastify()
  const adapter = new RedisIoAdapter(app.server)
  await adapter.connectToRedis(url)
  after(async () => {
    await app.close()
    await Promise.all(adapter.clients.map((client) => client.quit()))
  })
  await app.register(decoratorPlugin, { module: ChatModule, websocketAdapter: adapter })
  return await listening(app)
}

function connect (after: (cleanup: Cleanup) => void, port: number): Promise<ClientSocket> {
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true })
  after(() => socket.disconnect())
  return new Promise((resolve, reject) => { socket.once('connect', () => resolve(socket)); socket.once('connect_error', reject) })
}

test('two instances with the socket.io Redis adapter broadcast to each other\'s clients', async (t) => {
  const after = cleanups(t)
  const url = await startRedis(after)
  const [first, second] = [await instance(after, url), await instance(after, url)]
  const a = await connect(after, first)
  const b = await connect(after, second)
  const heardByB = new Promise((resolve) => b.once('heard', resolve))
  const heardByA = new Promise((resolve) => a.once('heard', resolve))
  assert.equal(await a.emitWithAck('shout', 'from a'), 'sent')
  assert.equal(await heardByB, 'from a')
  assert.equal(await heardByA, 'from a')
  const back = new Promise((resolve) => a.once('heard', resolve))
  await b.emitWithAck('shout', 'from b')
  assert.equal(await back, 'from b')
})
