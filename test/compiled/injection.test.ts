// Runs on tsc output (emitDecoratorMetadata): injection by type, no @Inject.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Injectable } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

@Injectable()
class Repo { all () { return ['a'] } }

@Injectable()
class Service { constructor (readonly repo: Repo) {} }

@Controller('items')
class Items {
  constructor (private readonly service: Service) {}
  @Get() all () { return this.service.repo.all() }
}

@Module({ controllers: [Items], providers: [Repo, Service] })
class AppModule {}

test('constructor parameters are injected by their emitted types', async (t) => {
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/items')).json(), ['a'])
})
