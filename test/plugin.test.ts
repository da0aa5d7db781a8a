import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Injectable, Inject } from '../plugin/index.js'
import { build } from './helpers/app.js'

@Injectable()
class Greeter { greet () { return { hello: 'world' } } }

@Controller('hello')
class HelloController {
  constructor (@Inject(Greeter) private readonly greeter: Greeter) {}
  @Get() get () { return this.greeter.greet() }
}

@Module({ controllers: [HelloController], providers: [Greeter] })
class AppModule {}

test('serves a controller beside plain routes', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.get('/legacy', async () => ({ plain: true })))
  assert.deepEqual((await app.inject('/hello')).json(), { hello: 'world' })
  assert.deepEqual((await app.inject('/legacy')).json(), { plain: true })
  assert.ok(app.container.get(Greeter) instanceof Greeter)
})

test('register fails on a missing or non-module "module" option, naming what was given', async () => {
  for (const [module, given] of [[undefined, 'undefined'], [class NotAModule {}, 'class NotAModule'], ['x', 'string "x"']] as const) {
    const app = Fastify()
    await assert.rejects(app.register(decoratorPlugin, { module } as any).ready(), (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
      assert.match(error.message, /"module" must be a class decorated with @Module\(\)/)
      assert.ok(error.message.includes(given), error.message)
      return true
    })
  }
})
