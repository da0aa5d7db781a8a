import { test } from 'node:test'
import assert from 'node:assert/strict'
import { map } from 'rxjs'
import {
  Catch, Injectable, MessageBody, Module, ParseIntPipe, SubscribeMessage, UseFilters, UseGuards, UseInterceptors, UsePipes, WebSocketGateway, WsException,
  createParamDecorator, type ArgumentsHost, type CallHandler, type CanActivate, type ExceptionFilter, type ExecutionContext, type NestInterceptor, type PipeTransform
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { listening, wsClient } from '../helpers/ws-client.js'

const seen: string[] = []

@Injectable()
class TokenGuard implements CanActivate {
  canActivate (ctx: ExecutionContext) {
    const ws = ctx.switchToWs()
    seen.push(`guard ${ctx.getType()} ${ws.getPattern()} ${ctx.getClass().name}.${ctx.getHandler().name}`)
    return (ws.getData() as { token?: string })?.token === 'yes'
  }
}

const wrap: NestInterceptor = { intercept: (ctx: ExecutionContext, next: CallHandler) => next.handle().pipe(map((data) => ({ wrapped: data }))) }

@Injectable()
class Upper implements PipeTransform {
  transform (value: unknown) { return typeof value === 'string' ? value.toUpperCase() : value }
}

class Mine extends Error {}

@Catch(Mine)
class MineFilter implements ExceptionFilter {
  catch (exception: Mine, host: ArgumentsHost) {
    const client = host.switchToWs().getClient()
    client.send(JSON.stringify({ event: 'mine', data: `${host.getType()} ${exception.message}` }))
  }
}

const Pattern = createParamDecorator((data: unknown, ctx: ExecutionContext) => ctx.switchToWs().getPattern())

@WebSocketGateway()
@UsePipes(Upper)
class GuardedGateway {
  @SubscribeMessage('secret')
  @UseGuards(TokenGuard)
  secret (@MessageBody('value') value: string) { return value }

  @SubscribeMessage('wrapped')
  @UseInterceptors(wrap)
  wrapped (@MessageBody() value: string) { return value }

  @SubscribeMessage('number')
  number (@MessageBody('n', ParseIntPipe) n: number) { return n + 1 }

  @SubscribeMessage('pattern')
  pattern (@Pattern() pattern: string) { return pattern }

  @SubscribeMessage('mine')
  @UseFilters(MineFilter)
  mine () { throw new Mine('caught') }

  @SubscribeMessage('other')
  @UseFilters(MineFilter)
  other () { throw new WsException('passes the filter by') }
}

@Module({ providers: [GuardedGateway] })
class AppModule {}

test('guards, pipes, interceptors and filters run on gateway handlers, with ws contexts', async (t) => {
  seen.length = 0
  const app = await build(t, AppModule)
  const client = await wsClient(t, await listening(app))
  client.send('secret', { token: 'no', value: 'x' })
  assert.deepEqual(await client.next(), { event: 'exception', data: { status: 'error', message: 'Forbidden resource', cause: { pattern: 'secret', data: { token: 'no', value: 'x' } } } })
  client.send('secret', { token: 'yes', value: 'x' })
  assert.equal(await client.next(), 'X')
  assert.deepEqual(seen, ['guard ws secret GuardedGateway.secret', 'guard ws secret GuardedGateway.secret'])
  client.send('wrapped', 'a')
  assert.deepEqual(await client.next(), { wrapped: 'A' })
  client.send('number', { n: '41' })
  assert.equal(await client.next(), 42)
  client.send('number', { n: 'x' })
  const failed = await client.next()
  assert.equal(failed.event, 'exception')
  assert.equal(failed.data.message, 'Internal server error')
  client.send('pattern')
  assert.equal(await client.next(), 'PATTERN')
  client.send('mine')
  assert.deepEqual(await client.next(), { event: 'mine', data: 'ws caught' })
  client.send('other')
  assert.equal((await client.next()).data.message, 'passes the filter by')
})

test('global guards, pipes and interceptors apply to gateways; global filters are the HTTP routes\' alone', async (t) => {
  const app = await build(t, AppModule, {
    globalInterceptors: [wrap],
    globalFilters: [{ catch: (exception: unknown, host: ArgumentsHost) => { host.switchToWs().getClient().send('"global filter"') } }]
  })
  const client = await wsClient(t, await listening(app))
  client.send('number', { n: '1' })
  assert.deepEqual(await client.next(), { wrapped: 2 })
  client.send('mine')
  assert.deepEqual(await client.next(), { event: 'mine', data: 'ws caught' })
  client.send('other')
  assert.equal((await client.next()).event, 'exception')
})
