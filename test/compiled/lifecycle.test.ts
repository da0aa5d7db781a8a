// Runs on tsc output: the application lifecycle with providers injected by type.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import {
  Controller, Get, Injectable, Module, decoratorPlugin,
  type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy, type OnModuleInit
} from '../../plugin/index.js'

const events: string[] = []

class Recorder implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  onModuleInit () { events.push(`init ${this.constructor.name}`) }
  async onApplicationBootstrap () { await Promise.resolve(); events.push(`bootstrap ${this.constructor.name}`) }
  onModuleDestroy () { events.push(`destroy ${this.constructor.name}`) }
  beforeApplicationShutdown (signal?: string) { events.push(`beforeShutdown ${this.constructor.name} ${signal}`) }
  onApplicationShutdown (signal?: string) { events.push(`shutdown ${this.constructor.name} ${signal}`) }
}

@Injectable() class Config extends Recorder {}
@Module({ providers: [Config], exports: [Config] })
class ConfigModule extends Recorder {}

@Injectable() class Cats extends Recorder { constructor (readonly config: Config) { super() } }
@Controller('cats') class CatsController extends Recorder { constructor (readonly cats: Cats) { super() } @Get() list () { return [] } }
@Module({ imports: [ConfigModule], controllers: [CatsController], providers: [Cats] })
class AppModule extends Recorder {}

test('application hooks in NestJS\'s order, dependencies found by their emitted types', async () => {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  await app.ready()
  const order = ['Config', 'ConfigModule', 'Cats', 'CatsController', 'AppModule']
  assert.deepEqual(events, [...order.map((name) => `init ${name}`), ...order.map((name) => `bootstrap ${name}`)])
  assert.equal(app.container.get(Cats).config, app.container.get(Config))

  events.length = 0
  await app.close()
  const reversed = [...order].reverse()
  assert.deepEqual(events, [
    ...reversed.map((name) => `destroy ${name}`),
    ...reversed.map((name) => `beforeShutdown ${name} undefined`),
    ...reversed.map((name) => `shutdown ${name} undefined`)
  ])
})
