// Type tests for the testing entry point and the route option decorators.
import type { FastifyInstance } from 'fastify'
import type {} from '@fastify/rate-limit'
import type {} from '@fastify/swagger'
import { test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { Module, Controller, Get, RouteSchema, RouteConfig, RouteConstraints } from '../../plugin/index.js'
import { createTestApp, type TestAppOptions } from '../../plugin/testing.js'

@Controller('t')
class TypedController {
  @Get()
  @RouteSchema({ querystring: Type.Object({ page: Type.Integer() }), response: { 200: { type: 'string' } }, summary: 'typed' })
  @RouteConfig({ rateLimit: { max: 2, timeWindow: '1 minute' }, anything: true })
  @RouteConstraints({ host: /example\.com$/, tenant: 'acme' })
  get () { return 'ok' }

  // @ts-expect-error: rate-limit's typed config rejects a string max
  @RouteConfig({ rateLimit: { max: 'two' } })
  @Get('bad') bad () { return 'bad' }

  // @ts-expect-error: the host constraint is a string or a RegExp
  @RouteConstraints({ host: 42 })
  @Get('bad-host') badHost () { return 'bad' }
}
void TypedController

@Module({ controllers: [TypedController] })
class AppModule {}

test('types', async (t) => {
  const app: FastifyInstance = await createTestApp(AppModule, { overrides: [{ provide: 'x', useValue: 1 }], prefix: '/api', fastify: { logger: false } }, t)
  void app
  const options: TestAppOptions = { setup: (app) => app.register(async () => {}) }
  void options
  await createTestApp(AppModule)
  // @ts-expect-error: module is passed separately, not among the options
  await createTestApp(AppModule, { module: AppModule })
  // @ts-expect-error: overrides are providers
  await createTestApp(AppModule, { overrides: [42] })
  // @ts-expect-error: t is a test context
  await createTestApp(AppModule, {}, 'context')
})
