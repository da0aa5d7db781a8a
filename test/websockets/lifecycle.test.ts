import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { WebSocket } from 'ws'
import {
  Inject, Injectable, MessageBody, Module, Scope, SubscribeMessage, WebSocketGateway, decoratorPlugin, type OnModuleDestroy
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { freePort, listening, wsClient } from '../helpers/ws-client.js'

const order: string[] = []

@WebSocketGateway({ path: '/a' })
class AGateway implements OnModuleDestroy {
  @SubscribeMessage('which') which () { return 'a' }
  async handleDisconnect () { await new Promise((resolve) => setTimeout(resolve, 20)); order.push('disconnect a') }
  onModuleDestroy () { order.push('destroy a') }
}

@WebSocketGateway({ path: '/b' })
class BGateway {
  @SubscribeMessage('which') which () { return 'b' }
}

@Module({ providers: [AGateway, BGateway] })
class PathsModule {}

test('gateways by path on one server; an unknown path is refused; close() runs the disconnect hooks before the providers\' shutdown hooks', async (t) => {
  order.length = 0
  const app = await build(t, PathsModule)
  const port = await listening(app)
  const a = await wsClient(t, port, '/a')
  const b = await wsClient(t, port, '/b/')
  a.send('which')
  b.send('which')
  assert.equal(await a.next(), 'a')
  assert.equal(await b.next(), 'b')
  const refused = new WebSocket(`ws://127.0.0.1:${port}/c`)
  const status = await new Promise((resolve) => refused.once('unexpected-response', (req, res) => { req.destroy(); resolve(res.statusCode) }))
  assert.equal(status, 404)
  const closed = new Promise((resolve) => a.socket.once('close', resolve))
  await app.close()
  await closed
  assert.deepEqual(order, ['disconnect a', 'destroy a'])
})

test('a gateway on a port of its own listens there, and stops with the app', async (t) => {
  const port = await freePort()
  @WebSocketGateway(port, { path: '/own' })
  class OwnPortGateway {
    @SubscribeMessage('ping') ping () { return 'pong' }
  }
  @Module({ providers: [OwnPortGateway] })
  class OwnPortModule {}
  const app = await build(t, OwnPortModule)
  const client = await wsClient(t, port, '/own')
  client.send('ping')
  assert.equal(await client.next(), 'pong')
  await app.close()
  await assert.rejects(wsClient(t, port, '/own'), /ECONNREFUSED/)
})

test('a request-scoped gateway, or one injecting a request-scoped provider, is refused naming it', async () => {
  @Injectable({ scope: Scope.REQUEST })
  class PerRequest {}
  @WebSocketGateway()
  class ScopedGateway {
    constructor (@Inject(PerRequest) readonly per: PerRequest) {}
    @SubscribeMessage('x') x () { return 1 }
  }
  @Module({ providers: [PerRequest, ScopedGateway] })
  class ScopedModule {}
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: ScopedModule }) }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_SCOPED_PROVIDER')
    assert.match(error.message, /ScopedGateway is a WebSocket gateway and is request-scoped/)
    return true
  })
  await app.close()
})

let running = 0
let most = 0

@WebSocketGateway()
class RobustGateway {
  @SubscribeMessage('echo') echo (@MessageBody() data: unknown) { return data }
  @SubscribeMessage('slow')
  async slow () {
    most = Math.max(most, ++running)
    await new Promise((resolve) => setTimeout(resolve, 10))
    running--
    return 'done'
  }
}

@Module({ providers: [RobustGateway] })
class RobustModule {}

test('garbage, huge frames, floods and clients leaving mid-handler cost their sender alone', async (t) => {
  const errors: unknown[] = []
  const app = await build(t, RobustModule)
  app.log.error = (...args: unknown[]) => { errors.push(args) }
  const port = await listening(app)
  const good = await wsClient(t, port)
  const bad = await wsClient(t, port)
  for (const frame of ['not json', '[1,2]', 'null', '42', '{"event":"nope"}', '{"event":{"a":1}}']) bad.socket.send(frame)
  bad.socket.send(Buffer.from([1, 2, 3]), { binary: true })
  bad.send('echo', 'still served')
  assert.equal(await bad.next(), 'still served')

  // A flood: handlers run at most 32 at once for that client; the others are served meanwhile.
  for (let i = 0; i < 500; i++) bad.send('slow')
  good.send('echo', 'meanwhile')
  assert.equal(await good.next(), 'meanwhile')
  for (let i = 0; i < 500; i++) assert.equal(await bad.next(), 'done')
  assert.equal(most, 32)

  // Leaving while handlers run: their answers are dropped.
  const leaving = await wsClient(t, port)
  for (let i = 0; i < 5; i++) leaving.send('slow')
  leaving.socket.terminate()
  await new Promise((resolve) => setTimeout(resolve, 50))

  // More than 1 MiB in a frame: that client is closed (1009), the others stay.
  const huge = await wsClient(t, port)
  const code = new Promise((resolve) => huge.socket.once('close', resolve))
  huge.send('echo', 'x'.repeat(1024 * 1024))
  assert.equal(await code, 1009)
  good.send('echo', 'after')
  assert.equal(await good.next(), 'after')
  assert.deepEqual(errors, [])
})
