// One NestJS-decorated application (@nestjs/core's RouterModule, a global prefix with exclusions,
// URI versioning, middleware) served by NestJS on @nestjs/platform-fastify and by the plugin: the
// same requests get the same answers.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  All, Controller, Get, Injectable, Module, Param, Post, RequestMethod, Version, VERSION_NEUTRAL, VersioningType,
  type MiddlewareConsumer, type NestMiddleware, type NestModule
} from '@nestjs/common'
import { NestFactory, RouterModule } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import { Test } from '../../plugin/testing.js'
import type { INestApplication } from '../../plugin/index.js'

@Injectable()
class Greeting {
  readonly word = 'hello'
}

@Controller('dashboard')
class DashboardController {
  constructor (private readonly greeting: Greeting) {}
  @Get() show () { return `${this.greeting.word} dashboard` }
  @Get(':id') one (@Param('id') id: string) { return `dashboard ${id}` }
  @Post(':id') update (@Param('id') id: string) { return `updated ${id}` }
  @Version('2') @Get('v') v2 () { return 'dashboard v2' }
}

@Controller()
class AdminRootController {
  @Get() root () { return 'admin root' }
}

@Module({ controllers: [DashboardController, AdminRootController], providers: [Greeting] })
class AdminModule {}

@Controller('users')
class UsersController {
  @Get() users () { return 'users' }
  @All('any') any () { return 'any' }
}

@Module({ controllers: [UsersController] })
class UsersModule {}

@Controller({ path: 'cats', version: VERSION_NEUTRAL })
class CatsController {
  @Get() cats () { return 'cats' }
  @Get('*') rest () { return 'cats rest' }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

@Controller('health')
class HealthController {
  @Get() health () { return 'health' }
  @Post() report () { return 'report' }
}

@Controller({ path: 'status', version: ['1', '2'] })
class StatusController {
  @Get() status () { return 'status' }
}

class TagMiddleware implements NestMiddleware {
  use (req: IncomingMessage, res: ServerResponse, next: () => void) {
    res.setHeader('x-tag', 'admin')
    next()
  }
}

function health (req: IncomingMessage, res: ServerResponse, next: () => void) {
  res.setHeader('x-health', 'yes')
  next()
}

@Module({
  imports: [
    AdminModule, UsersModule, CatsModule,
    RouterModule.register([
      { path: 'admin', module: AdminModule, children: [{ path: '/people/', module: UsersModule }] },
      { path: 'pets', children: [CatsModule] }
    ])
  ],
  controllers: [HealthController, StatusController]
})
class AppModule implements NestModule {
  configure (consumer: MiddlewareConsumer) {
    consumer.apply(TagMiddleware).forRoutes({ path: 'admin/*path', method: RequestMethod.GET })
    consumer.apply(health).forRoutes('health')
  }
}

const exclude = [
  'health',
  { path: 'admin/dashboard/:id', method: RequestMethod.GET },
  { path: 'admin/people/users/any', method: RequestMethod.ALL },
  '/STATUS/',
  'pets/cats/{*rest}'
]

// NestJS's VersioningType is numeric; the plugin's enableVersioning() takes its own names.
function configure (app: { setGlobalPrefix: (prefix: string, options?: any) => unknown, enableVersioning: (options: any) => unknown }, type: unknown) {
  app.setGlobalPrefix('api', { exclude })
  app.enableVersioning({ type, defaultVersion: '1' })
}

const requests: Array<[method: string, url: string]> = [
  ['GET', '/api/v1/admin'], ['GET', '/v1/admin'], ['GET', '/api/admin'],
  ['GET', '/api/v1/admin/dashboard'], ['GET', '/v1/admin/dashboard'],
  ['GET', '/v1/admin/dashboard/7'], ['GET', '/api/v1/admin/dashboard/7'],
  ['POST', '/api/v1/admin/dashboard/7'], ['POST', '/v1/admin/dashboard/7'],
  ['GET', '/api/v2/admin/dashboard/v'], ['GET', '/v2/admin/dashboard/v'],
  ['GET', '/api/v1/admin/people/users'], ['GET', '/api/v1/people/users'],
  ['PUT', '/v1/admin/people/users/any'], ['PUT', '/api/v1/admin/people/users/any'],
  ['GET', '/pets/cats'], ['GET', '/api/pets/cats'], ['GET', '/pets/cats/a/b'], ['GET', '/api/v1/pets/cats'],
  ['GET', '/v1/health'], ['POST', '/v1/health'], ['GET', '/api/v1/health'], ['GET', '/health'],
  ['GET', '/v1/status'], ['GET', '/v2/status'], ['GET', '/api/v1/status']
]

type Answer = [status: number, body: string, tag?: string, health?: string]

async function answers (app: INestApplication | NestFastifyApplication): Promise<Answer[]> {
  const inject = (app as unknown as { inject: (options: object) => Promise<{ statusCode: number, body: string, headers: Record<string, unknown> }> }).inject
  const result: Answer[] = []
  for (const [method, url] of requests) {
    const response = await inject.call(app, { method, url })
    // A 404 is the router's own answer, and its body its own; NestJS's middleware also runs on paths
    // no route serves, the plugin's only on routes (docs/migration.md): 404s are compared by status.
    if (response.statusCode === 404) result.push([404, ''])
    else result.push([response.statusCode, response.body, response.headers['x-tag'] as string | undefined, response.headers['x-health'] as string | undefined])
  }
  return result
}

let nest: NestFastifyApplication
let ours: INestApplication

before(async () => {
  nest = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false })
  configure(nest, VersioningType.URI)
  await nest.init()
  await nest.getHttpAdapter().getInstance().ready()
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  ours = moduleRef.createNestApplication()
  configure(ours, 'uri')
  await ours.init()
})

after(async () => {
  await nest?.close()
  await ours?.close()
})

test('RouterModule, a global prefix with exclusions, URI versioning and middleware: the plugin answers as NestJS on Fastify', async () => {
  const expected = await answers(nest)
  const actual = await answers(ours)
  const differences = requests.flatMap((request, i) => JSON.stringify(actual[i]) === JSON.stringify(expected[i]) ? [] : [`${request.join(' ')}: ${JSON.stringify(actual[i])} instead of ${JSON.stringify(expected[i])}`])
  assert.deepEqual(differences, [])
  // Most of the table is served, on both sides of the prefix.
  assert.equal(expected.filter(([status]) => status < 300).length, 13)
})
