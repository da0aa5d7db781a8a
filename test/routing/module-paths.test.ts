import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  Module, Controller, Get, Param, RouterModule, RequestMethod,
  type MiddlewareConsumer, type NestModule
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

@Controller('dashboard')
class DashboardController {
  @Get() show () { return 'dashboard' }
  @Get(':id') one (@Param('id') id: string) { return `dashboard ${id}` }
}

@Controller()
class AdminRootController {
  @Get() root () { return 'admin root' }
}

@Module({ controllers: [DashboardController, AdminRootController] })
class AdminModule {}

@Controller('metrics')
class MetricsController {
  @Get() metrics () { return 'metrics' }
}

@Module({ controllers: [MetricsController] })
class MetricsModule {}

@Controller('users')
class UsersController {
  @Get() users () { return 'users' }
}

@Module({ controllers: [UsersController] })
class UsersModule {}

@Controller('cats')
class CatsController {
  @Get() cats () { return 'cats' }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

@Controller('health')
class HealthController {
  @Get() health () { return 'health' }
}

// The module a route lists is imported elsewhere too (here by UsersModule's importer).
@Module({ imports: [CatsModule] })
class SharedModule {}

@Module({
  imports: [
    AdminModule, MetricsModule, UsersModule, SharedModule,
    RouterModule.register([
      {
        path: 'admin',
        module: AdminModule,
        children: [
          { path: '/metrics/', module: MetricsModule },
          { path: 'people', children: [UsersModule] }
        ]
      },
      { path: 'pets', module: CatsModule }
    ])
  ],
  controllers: [HealthController]
})
class AppModule {}

test('RouterModule puts each module\'s path between the prefix and its controllers\' paths, children below their parent\'s', async (t) => {
  const app = await build(t, AppModule)
  const table: Array<[string, string]> = [
    ['/admin', 'admin root'],
    ['/admin/dashboard', 'dashboard'],
    ['/admin/dashboard/7', 'dashboard 7'],
    ['/admin/metrics/metrics', 'metrics'],
    ['/admin/people/users', 'users'],
    ['/pets/cats', 'cats'],
    ['/health', 'health']
  ]
  for (const [url, body] of table) assert.equal((await app.inject(url)).body, body, url)
  for (const url of ['/dashboard', '/metrics', '/users', '/cats']) assert.equal((await app.inject(url)).statusCode, 404, url)
})

test('with a global prefix, its exclusions (matched on the module path too) and URI versioning, paths compose as NestJS composes them', async (t) => {
  const app = await build(t, AppModule, { prefix: 'api', prefixExclude: ['admin/dashboard/:id'], versioning: { type: 'uri', defaultVersion: '1' } })
  assert.equal((await app.inject('/api/v1/admin/dashboard')).body, 'dashboard')
  assert.equal((await app.inject('/v1/admin/dashboard/3')).body, 'dashboard 3')
  assert.equal((await app.inject('/api/v1/admin/people/users')).body, 'users')
  assert.equal((await app.inject('/api/v1/health')).body, 'health')
  assert.equal((await app.inject('/api/admin/v1/dashboard')).statusCode, 404)
})

function tag (name: string) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    res.setHeader('x-tag', name)
    next()
  }
}

@Module({ imports: [AppModule] })
class MiddlewareModule implements NestModule {
  configure (consumer: MiddlewareConsumer) {
    consumer.apply(tag('admin')).forRoutes({ path: 'admin/*', method: RequestMethod.GET })
    consumer.apply(tag('cats')).forRoutes(CatsController)
  }
}

test('middleware forRoutes() paths match the composed path (below the prefix); a controller class matches wherever it is served', async (t) => {
  const app = await build(t, MiddlewareModule, { prefix: 'api' })
  assert.equal((await app.inject('/api/admin/dashboard')).headers['x-tag'], 'admin')
  assert.equal((await app.inject('/api/admin/people/users')).headers['x-tag'], 'admin')
  assert.equal((await app.inject('/api/pets/cats')).headers['x-tag'], 'cats')
  assert.equal((await app.inject('/api/health')).headers['x-tag'], undefined)
})

test('a module listed in a route but not imported, a module given two paths, and bad routes fail registration naming them', async () => {
  @Module({ imports: [RouterModule.register([{ path: 'admin', module: AdminModule }])] })
  class NotImported {}
  let error = await registrationError({ module: NotImported })
  assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
  assert.match(error.message, /^RouterModule\.register\(\) imported by NotImported: the route at index 0 \("admin"\) names AdminModule, which the application does not import\. .*add AdminModule to the imports of a module/)

  @Module({ imports: [AdminModule, RouterModule.register([{ path: 'admin', module: AdminModule }, { path: 'x', children: [AdminModule] }])] })
  class Twice {}
  error = await registrationError({ module: Twice })
  assert.match(error.message, /the route at index 1 \("x"\), child 0 gives AdminModule the path "\/x", but .*the route at index 0 \("admin"\) gave it "\/admin"\. A module has one path: list it once\./)

  const bad: Array<[unknown, RegExp]> = [
    ['admin', /takes an array of \{ path, module, children \}, given string "admin"/],
    [[{ module: AdminModule }], /the route at index 0 is an object .*; give \{ path: 'admin', module: AdminModule, children: \[\.\.\.\] \}/],
    [[AdminModule], /the route at index 0 is class AdminModule/],
    [[{ path: 'a', module: 'AdminModule' }], /the route at index 0 \("a"\) has the module string "AdminModule"; give a module class/],
    [[{ path: 'a', children: {} }], /has children an object .*, which must be an array of routes or module classes/],
    [[{ path: 'a', children: [{ path: 1 }] }], /the route under "\/a" at index 0 is an object/]
  ]
  for (const [routes, message] of bad) {
    @Module({ imports: [AdminModule, RouterModule.register(routes as any)] })
    class Bad {}
    error = await registrationError({ module: Bad })
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION', String(message))
    assert.match(error.message, message)
  }
})

test('the same path for two modules, and a route the same as another\'s, are what they are without RouterModule: the latter is a duplicate route', async () => {
  @Controller('dashboard')
  class OtherDashboard {
    @Get() show () { return 'other' }
  }
  @Module({ controllers: [OtherDashboard] })
  class OtherModule {}
  @Module({ imports: [AdminModule, OtherModule, RouterModule.register([{ path: 'admin', module: AdminModule }, { path: 'admin', module: OtherModule }])] })
  class Clash {}
  const error = await registrationError({ module: Clash })
  assert.equal(error.code, 'FDP_ERR_DUPLICATE_ROUTE')
  assert.match(error.message, /GET \/admin\/dashboard/)
})
