// Runs on tsc output (emitDecoratorMetadata): NestJS's own ecosystem packages, as published,
// imported unchanged by an application registered with the plugin.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Body, Controller, Get, Injectable, Module, Post, Req, UseGuards, UseInterceptors, type LoggerService } from '@nestjs/common'
import { CACHE_MANAGER, CacheInterceptor, CacheKey, CacheModule, CacheTTL } from '@nestjs/cache-manager'
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus'
import type { Cache } from 'cache-manager'
import { JwtModule, JwtService } from '@nestjs/jwt'
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport'
import { ExtractJwt, Strategy } from 'passport-jwt'
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

@Injectable()
class ClockService {
  calls = 0
  now () { return { call: ++this.calls } }
}

@Controller('cached')
@UseInterceptors(CacheInterceptor)
class CachedController {
  constructor (private readonly clock: ClockService) {}

  @Get()
  read () { return this.clock.now() }

  @Get('short') @CacheKey('short-key') @CacheTTL(3_600_000)
  short () { return this.clock.now() }
}

@Module({ imports: [CacheModule.register()], controllers: [CachedController], providers: [ClockService] })
class CachedApp {}

test('@nestjs/cache-manager: CacheModule.register() with CacheInterceptor answers a GET from the cache', async (t) => {
  const app = await build(t, CachedApp)
  assert.deepEqual((await app.inject('/cached')).json(), { call: 1 })
  // The interceptor caches by the request URL, which it reads through HttpAdapterHost.
  assert.deepEqual((await app.inject('/cached')).json(), { call: 1 })
  assert.deepEqual((await app.inject('/cached?page=2')).json(), { call: 2 })
  const cache = app.container.get<Cache>(CACHE_MANAGER)
  assert.deepEqual(await cache.get('/cached'), { call: 1 })
  assert.deepEqual((await app.inject('/cached/short')).json(), { call: 3 })
  assert.deepEqual(await cache.get('short-key'), { call: 3 })
  // The route's own TTL (an hour) governs its entry: its expiry is an hour from now.
  const expires = await cache.ttl('short-key')
  assert.ok(expires !== undefined && Math.abs(expires - Date.now() - 3_600_000) < 60_000, `expiry ${expires}`)
})

@Injectable()
class DatabaseIndicator {
  up = true
  constructor (private readonly indicators: HealthIndicatorService) {}
  isHealthy () {
    const session = this.indicators.check('database')
    return this.up ? session.up() : session.down({ reason: 'unreachable' })
  }
}

@Controller('health')
class HealthController {
  constructor (private readonly health: HealthCheckService, private readonly database: DatabaseIndicator) {}

  @Get() @HealthCheck()
  check () { return this.health.check([() => this.database.isHealthy()]) }
}

// Terminus logs a failing check at error level: the test keeps what it logs instead of printing it.
const healthLog: string[] = []
class CapturingLogger implements LoggerService {
  log (message: unknown) { healthLog.push(`log ${message}`) }
  warn (message: unknown) { healthLog.push(`warn ${message}`) }
  error (message: unknown) { healthLog.push(`error ${message}`) }
}

@Module({ imports: [TerminusModule.forRoot({ logger: CapturingLogger })], controllers: [HealthController], providers: [DatabaseIndicator] })
class HealthApp {}

test('@nestjs/terminus: a health check answers 200 while its indicator is up, 503 once it is down', async (t) => {
  const app = await build(t, HealthApp)
  const healthy = await app.inject('/health')
  assert.equal(healthy.statusCode, 200)
  assert.deepEqual(healthy.json(), { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } })
  app.container.get(DatabaseIndicator).up = false
  const failing = await app.inject('/health')
  assert.equal(failing.statusCode, 503)
  const down = { database: { status: 'down', reason: 'unreachable' } }
  assert.deepEqual(failing.json(), { status: 'error', info: {}, error: down, details: down })
  assert.deepEqual(healthLog, ['error Health Check has failed! {"database":{"reason":"unreachable","status":"down"}}'])
})

const auth = registerAs('auth', () => ({ secret: 'test-secret-of-32-characters-long' }))

@Injectable()
class JwtStrategy extends PassportStrategy(Strategy) {
  // Registers itself with passport when built: a singleton nothing injects, built at start.
  constructor (config: ConfigService) {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: config.getOrThrow<string>('auth.secret') })
  }

  validate (payload: { sub: number, name: string }) { return { id: payload.sub, name: payload.name } }
}

@Controller('auth')
class AuthController {
  constructor (private readonly jwt: JwtService) {}

  @Post('login')
  login (@Body() user: { id: number, name: string }) { return { token: this.jwt.sign({ sub: user.id, name: user.name }) } }

  @Get('me') @UseGuards(AuthGuard('jwt'))
  me (@Req() request: { user: unknown }) { return request.user }
}

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [auth] }),
    PassportModule,
    JwtModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({ secret: config.getOrThrow<string>('auth.secret'), signOptions: { expiresIn: '1h' } })
    })
  ],
  controllers: [AuthController],
  providers: [JwtStrategy]
})
class AuthApp {}

test('@nestjs/jwt and @nestjs/passport: JwtModule.registerAsync() from ConfigService, a passport-jwt strategy behind AuthGuard(\'jwt\')', async (t) => {
  const app = await build(t, AuthApp)
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { id: 7, name: 'Tom' } })
  assert.equal(login.statusCode, 201)
  const { token } = login.json()
  const me = await app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${token}` } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { id: 7, name: 'Tom' })
  const anonymous = await app.inject('/auth/me')
  assert.equal(anonymous.statusCode, 401)
  assert.deepEqual(anonymous.json(), { message: 'Unauthorized', statusCode: 401 })
  const forged = await app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${token.slice(0, -2)}xx` } })
  assert.equal(forged.statusCode, 401)
})
