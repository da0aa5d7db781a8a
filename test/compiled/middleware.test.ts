// Middleware as NestJS apps write it, compiled with decorator metadata: injection by type into
// the middleware class and into the module whose configure() applies it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  Module, Controller, Get, Injectable, Req, RequestMethod,
  type MiddlewareConsumer, type NestMiddleware, type NestModule, type Request
} from 'fastify-decorator-plugin'
import { Test } from 'fastify-decorator-plugin/testing'

@Injectable()
class AuditLog {
  readonly lines: string[] = []
}

@Injectable()
class AuditMiddleware implements NestMiddleware {
  constructor (private readonly audit: AuditLog) {}
  use (req: IncomingMessage, res: ServerResponse, next: () => void) {
    this.audit.lines.push(`${req.method} ${req.url}`)
    next()
  }
}

@Injectable()
class Settings {
  readonly audited = 'cats'
}

@Controller('cats')
class CatsController {
  @Get() all (@Req() request: Request) { return { audited: (request.raw as IncomingMessage & { audited?: boolean }).audited === true } }
}

@Controller('health')
class HealthController {
  @Get() check () { return 'ok' }
}

@Module({ controllers: [CatsController, HealthController], providers: [AuditLog, Settings] })
class AppModule implements NestModule {
  constructor (private readonly settings: Settings) {}
  configure (consumer: MiddlewareConsumer) {
    consumer
      .apply(AuditMiddleware, (req: IncomingMessage & { audited?: boolean }, res: ServerResponse, next: () => void) => { req.audited = true; next() })
      .forRoutes({ path: this.settings.audited, method: RequestMethod.GET })
  }
}

test('a NestJS module\'s middleware runs in an application made by Test.createTestingModule', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  const app = moduleRef.createNestApplication()
  await app.init()
  assert.deepEqual((await app.inject('/cats?page=2')).json(), { audited: true })
  assert.equal((await app.inject('/health')).body, 'ok')
  assert.deepEqual(app.get(AuditLog).lines, ['GET /cats?page=2'])
  await app.close()
})
