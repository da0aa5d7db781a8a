import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RouterModule as NestRouterModule } from '@nestjs/core'
import { Module, Controller, Get, Injectable, Inject } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

@Controller('cats')
class CatsController {
  @Get() list () { return 'cats' }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

test('@nestjs/core\'s RouterModule.register() gives the plugin\'s modules their paths', async (t) => {
  @Module({ imports: [CatsModule, NestRouterModule.register([{ path: 'pets', children: [{ path: 'house', module: CatsModule }] }])] })
  class AppModule {}
  const app = await build(t, AppModule, { prefix: 'api' })
  assert.equal((await app.inject('/api/pets/house/cats')).body, 'cats')
  assert.equal((await app.inject('/api/cats')).statusCode, 404)
})

test('a module of the user\'s named RouterModule is a module as any other', async (t) => {
  @Injectable()
  class Paths {
    readonly list = ['x']
  }
  @Module({})
  class RouterModule {
    static register () { return { module: RouterModule, providers: [Paths], exports: [Paths] } }
  }
  @Controller('paths')
  class PathsController {
    constructor (@Inject(Paths) private readonly paths: Paths) {}
    @Get() list () { return this.paths.list }
  }
  @Module({ imports: [RouterModule.register(), CatsModule], controllers: [PathsController] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/paths')).json(), ['x'])
  assert.equal((await app.inject('/cats')).body, 'cats')
})
