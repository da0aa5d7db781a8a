// Runs on tsc output (emitDecoratorMetadata): NestJS's own ecosystem packages, as published,
// imported unchanged by an application registered with the plugin.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Controller, Get, Module } from '@nestjs/common'
import { APP_GUARD } from '@nestjs/core'
import { ConfigModule, ConfigService, registerAs } from '@nestjs/config'
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler'
import { build } from '../helpers/app.js'

const database = registerAs('database', () => ({ host: 'db.internal', port: 5432 }))

@Controller('config')
class ConfigController {
  // Injected by type from a global module the root imports as a Promise.
  constructor (private readonly config: ConfigService) {}

  @Get()
  read () {
    return { host: this.config.get<string>('database.host'), port: this.config.get<number>('database.port'), app: this.config.get('APP_NAME') }
  }
}

@Module({ controllers: [ConfigController] })
class FeatureModule {}

@Module({ imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [database] }), FeatureModule] })
class ConfigApp {}

test('@nestjs/config: ConfigModule.forRoot({ isGlobal, load }) and ConfigService injected by type in another module', async (t) => {
  process.env.APP_NAME = 'cats'
  t.after(() => { delete process.env.APP_NAME })
  const app = await build(t, ConfigApp)
  const res = await app.inject('/config')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { host: 'db.internal', port: 5432, app: 'cats' })
})

@Controller('limited')
class LimitedController {
  @Get()
  hello () { return { ok: true } }
}

@Module({
  imports: [ThrottlerModule.forRoot([{ ttl: 60_000, limit: 2 }])],
  controllers: [LimitedController],
  providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }]
})
class ThrottledApp {}

test('@nestjs/throttler: ThrottlerGuard as APP_GUARD answers 429 on the third request', async (t) => {
  const app = await build(t, ThrottledApp)
  const first = await app.inject('/limited')
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers['x-ratelimit-limit'], '2')
  assert.equal(first.headers['x-ratelimit-remaining'], '1')
  assert.equal((await app.inject('/limited')).statusCode, 200)
  const third = await app.inject('/limited')
  assert.equal(third.statusCode, 429)
  // The plugin's body for an exception with a message (NestJS's own handler leaves out `error`).
  assert.deepEqual(third.json(), { statusCode: 429, message: 'ThrottlerException: Too Many Requests', error: 'Too Many Requests' })
  assert.ok(Number(third.headers['retry-after']) > 0)
})
