// Runs on tsc output (emitDecoratorMetadata): a gateway written for NestJS, with @nestjs/websockets'
// decorators, @nestjs/common's enhancers and injection by type, served unchanged.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Catch, Injectable, UseFilters, UseGuards, UsePipes, ValidationPipe, type ArgumentsHost, type CanActivate, type ExecutionContext } from '@nestjs/common'
import {
  BaseWsExceptionFilter, ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway, WebSocketServer, WsException,
  type OnGatewayConnection, type OnGatewayInit, type WsResponse
} from '@nestjs/websockets'
import { WsAdapter } from '@nestjs/platform-ws'
import { IsInt, Min } from 'class-validator'
import { Test } from '../../plugin/testing.js'
import { listening, wsClient } from '../helpers/ws-client.js'
import { build } from '../helpers/app.js'
import * as plugin from '../../plugin/index.js'

@Injectable()
class Counter {
  count = 0
  next () { return ++this.count }
}

@Injectable()
class HeaderGuard implements CanActivate {
  constructor (private readonly counter: Counter) {}
  canActivate (ctx: ExecutionContext) { return ctx.switchToWs().getData()?.allowed === true && this.counter instanceof Counter }
}

class MoveDto {
  @IsInt() @Min(0) steps!: number
}

@Catch(WsException)
class TaggingFilter extends BaseWsExceptionFilter {
  catch (exception: WsException, host: ArgumentsHost) {
    host.switchToWs().getClient().send(JSON.stringify({ event: 'tagged', data: exception.message }))
  }
}

@WebSocketGateway({ path: '/nest' })
class NestGateway implements OnGatewayInit, OnGatewayConnection {
  @WebSocketServer() server: any
  initialized = false
  connections = 0

  // By type.
  constructor (private readonly counter: Counter) {}

  afterInit () { this.initialized = this.server !== undefined }
  handleConnection () { this.connections++ }

  @SubscribeMessage('count')
  count (): WsResponse<number> { return { event: 'counted', data: this.counter.next() } }

  @SubscribeMessage('guarded')
  @UseGuards(HeaderGuard)
  guarded (@MessageBody('value') value: string) { return value }

  @SubscribeMessage('move')
  @UsePipes(new ValidationPipe({ transform: true, exceptionFactory: () => new WsException('bad move') }))
  move (@MessageBody() dto: MoveDto) { return dto instanceof MoveDto ? dto.steps : 'not transformed' }

  @SubscribeMessage('tagged')
  @UseFilters(TaggingFilter)
  tagged () { throw new WsException('tag me') }

  @SubscribeMessage('whoami')
  whoami (@ConnectedSocket() client: any) { return typeof client.send }
}

test('a NestJS gateway: @nestjs/websockets decorators, injection by type, @nestjs/common enhancers, NestJS\'s WsAdapter', async (t) => {
  const app = (await Test.createTestingModule({ providers: [Counter, HeaderGuard, NestGateway] }).compile()).createNestApplication()
  t.after(() => app.close())
  app.useWebSocketAdapter(new WsAdapter(app))
  await app.listen(0, '127.0.0.1')
  const client = await wsClient(t, app.getHttpServer().address().port, '/nest')
  client.send('count')
  assert.deepEqual(await client.next(), { event: 'counted', data: 1 })
  client.send('guarded', { allowed: false, value: 'v' })
  assert.equal((await client.next()).data.message, 'Forbidden resource')
  client.send('guarded', { allowed: true, value: 'v' })
  assert.equal(await client.next(), 'v')
  client.send('move', { steps: -1 })
  assert.equal((await client.next()).data.message, 'bad move')
  client.send('move', { steps: 3 })
  assert.equal(await client.next(), 3)
  client.send('tagged')
  assert.deepEqual(await client.next(), { event: 'tagged', data: 'tag me' })
  client.send('whoami')
  assert.equal(await client.next(), 'function')
  const gateway = app.get(NestGateway)
  assert.equal(gateway.initialized, true)
  assert.equal(gateway.connections, 1)
})

test('the same gateway with the plugin\'s decorators module and its own adapter', async (t) => {
  @plugin.Module({ providers: [Counter, HeaderGuard, NestGateway] })
  class AppModule {}
  const app = await build(t, AppModule)
  const client = await wsClient(t, await listening(app), '/nest')
  client.send('count')
  assert.deepEqual(await client.next(), { event: 'counted', data: 1 })
})
