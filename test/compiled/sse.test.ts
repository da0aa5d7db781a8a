// Runs on tsc output: a NestJS controller's @Sse() route, with a service injected by type.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import * as nest from '@nestjs/common'
import { Observable, map } from 'rxjs'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

const torn = { unsubscribed: 0 }

@nest.Injectable()
class Clock {
  ticks (): Observable<number> {
    return new Observable<number>((subscriber) => {
      let n = 0
      const timer = setInterval(() => subscriber.next(++n), 5)
      return () => { clearInterval(timer); torn.unsubscribed++ }
    })
  }
}

class Tagged implements nest.NestInterceptor {
  intercept (ctx: nest.ExecutionContext, next: nest.CallHandler) {
    return next.handle().pipe(map((event: nest.MessageEvent) => ({ ...event, type: 'tick' })))
  }
}

@nest.Controller('clock')
class ClockController {
  constructor (private readonly clock: Clock) {}

  @nest.Sse() @nest.UseInterceptors(Tagged)
  stream (): Observable<nest.MessageEvent> {
    return this.clock.ticks().pipe(map((n) => ({ data: { n } })))
  }
}

@nest.Module({ controllers: [ClockController], providers: [Clock] })
class AppModule {}

test("NestJS's @Sse() over a socket: events as NestJS writes them, torn down when the client leaves", async (t) => {
  const app = await build(t, AppModule)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const received = await new Promise<{ headers: Record<string, unknown>, text: string }>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/clock' }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        if (text.includes('id: 2\n')) { req.destroy(); resolve({ headers: res.headers, text }) }
      })
    })
    req.on('error', (error) => { if (!req.destroyed) reject(error) })
    req.end()
  })
  assert.equal(received.headers['content-type'], 'text/event-stream')
  assert.equal(received.headers['x-accel-buffering'], 'no')
  assert.ok(received.text.startsWith('\nevent: tick\nid: 1\ndata: {"n":1}\n\nevent: tick\nid: 2\ndata: {"n":2}\n\n'), received.text)
  while (torn.unsubscribed === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  assert.equal((await app.inject('/clock/none')).statusCode, 404)
})

test("NestJS's @Sse() with @Render() or a @Res() it would answer on fails registration, as NestJS would answer twice", async () => {
  @nest.Controller('page')
  class RenderedController {
    @nest.Sse() @nest.Render('page')
    stream (): Observable<nest.MessageEvent> { return new Observable() }
  }
  @nest.Controller('reply')
  class RepliedController {
    @nest.Sse()
    stream (@nest.Res() reply: unknown): Observable<nest.MessageEvent> { return new Observable() }
  }
  for (const [controller, message] of [[RenderedController, /RenderedController\.stream has both @Sse\(\) and @Render\(\)/], [RepliedController, /RepliedController\.stream has @Sse\(\) and takes the reply with @Res\(\)/]] as const) {
    @nest.Module({ controllers: [controller] })
    class FailingModule {}
    const error = await registrationError({ module: FailingModule })
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, message)
  }
})

test("NestJS's @SseSignal() fails registration: the plugin puts no abort signal on the request", async () => {
  @nest.Controller('signal')
  class SignalController {
    @nest.Sse()
    stream (@nest.SseSignal() signal: AbortSignal): Observable<nest.MessageEvent> { return new Observable() }
  }
  @nest.Module({ controllers: [SignalController] })
  class FailingModule {}
  const error = await registrationError({ module: FailingModule })
  assert.equal(error.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(error.message, /SignalController\.stream: parameter 0 takes @SseSignal\(\) of @nestjs\/common, which the plugin does not provide/)
})
