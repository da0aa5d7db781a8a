import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import {
  decoratorPlugin, Module, Global, Controller, Get, Param, Injectable, Inject, UseGuards, UsePipes, UseInterceptors,
  UseFilters, Catch, NotFoundException, UnauthorizedException, ParseIntPipe,
  type CanActivate, type PipeTransform, type NestInterceptor, type CallHandler, type ExceptionFilter, type ArgumentsHost
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

// Counts constructor runs, so a test can prove a replaced class was never built.
const built = new Map<string, number>()
const count = (name: string) => built.set(name, (built.get(name) ?? 0) + 1)

// A deep module graph: AppModule -> FeatureModule -> DataModule, plus a global ConfigModule.
@Injectable()
class Connection {
  constructor () { count('Connection') }
  readonly name = 'real connection'
}

@Injectable()
class Database {
  constructor (@Inject(Connection) readonly connection: Connection) { count('Database') }
  find (id: string) { return { id, from: 'database' } }
}

@Module({ providers: [Connection, Database], exports: [Database] })
class DataModule {}

@Injectable()
class CatsService {
  constructor (@Inject(Database) private readonly db: Database) {}
  find (id: string) { return this.db.find(id) }
}

@Controller('cats')
class CatsController {
  constructor (@Inject(CatsService) private readonly cats: CatsService) {}
  @Get(':id') find (@Param('id') id: string) { return this.cats.find(id) }
}

@Module({ imports: [DataModule], controllers: [CatsController], providers: [CatsService] })
class FeatureModule {}

@Injectable()
class Config {
  constructor () { count('Config') }
  readonly mode: string = 'production'
}

@Global()
@Module({ providers: [Config, { provide: 'GREETING', useValue: 'hello' }], exports: [Config, 'GREETING'] })
class ConfigModule {}

@Controller('config')
class ConfigController {
  constructor (@Inject(Config) private readonly config: Config, @Inject('GREETING') private readonly greeting: string) {}
  @Get() get () { return { mode: this.config.mode, greeting: this.greeting } }
}

@Module({ imports: [FeatureModule, ConfigModule], controllers: [ConfigController] })
class AppModule {}

class FakeDatabase {
  constructor () { count('FakeDatabase') }
  find (id: string) { return { id, from: 'fake' } }
}

test('an override replaces a provider of a deeply imported module, and the replaced class is never built', async (t) => {
  built.clear()
  const app = await build(t, AppModule, { overrides: [{ provide: Database, useClass: FakeDatabase }] })
  const res = await app.inject('/cats/7')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { id: '7', from: 'fake' })
  assert.equal(built.get('Database'), undefined)
  assert.equal(built.get('FakeDatabase'), 1)
  assert.ok(app.container.get(Database) instanceof FakeDatabase)
})

test('without overrides the real providers serve (control for the override tests)', async (t) => {
  built.clear()
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/cats/7')).json(), { id: '7', from: 'database' })
  assert.deepEqual((await app.inject('/config')).json(), { mode: 'production', greeting: 'hello' })
  assert.equal(built.get('Database'), 1)
  assert.equal(built.get('Config'), 1)
})

test('an override replaces a global module\'s providers: class and string tokens, useValue and useFactory', async (t) => {
  built.clear()
  const app = await build(t, AppModule, {
    overrides: [
      { provide: Config, useValue: { mode: 'test' } },
      { provide: 'GREETING', useFactory: () => 'hi from a factory' }
    ]
  })
  assert.deepEqual((await app.inject('/config')).json(), { mode: 'test', greeting: 'hi from a factory' })
  assert.equal(built.get('Config'), undefined)
})

test('an override can alias another provider the declaring module sees (useExisting)', async (t) => {
  @Injectable()
  class Clock { now () { return 'real' } }
  @Injectable()
  class FrozenClock { now () { return 'frozen' } }
  @Controller('clock')
  class ClockController {
    constructor (@Inject(Clock) private readonly clock: Clock) {}
    @Get() get () { return this.clock.now() }
  }
  @Module({ controllers: [ClockController], providers: [Clock, FrozenClock] })
  class ClockModule {}
  const app = await build(t, ClockModule, { overrides: [{ provide: Clock, useExisting: FrozenClock }] })
  assert.equal((await app.inject('/clock')).body, 'frozen')
  assert.equal(app.container.get(Clock), app.container.get(FrozenClock))
})

test('when a token is overridden twice, the last override wins', async (t) => {
  const app = await build(t, AppModule, { overrides: [{ provide: 'GREETING', useValue: 'first' }, { provide: 'GREETING', useValue: 'last' }] })
  assert.deepEqual((await app.inject('/config')).json(), { mode: 'production', greeting: 'last' })
})

test('the replacement\'s dependencies resolve in the module that declared the token', async (t) => {
  built.clear()
  // Connection is private to DataModule: only a replacement resolved there can inject it.
  class FakeWithConnection {
    constructor (@Inject(Connection) readonly connection: Connection) { count('FakeWithConnection') }
    find (id: string) { return { id, from: this.connection.name } }
  }
  const app = await build(t, AppModule, { overrides: [{ provide: Database, useClass: FakeWithConnection }] })
  assert.deepEqual((await app.inject('/cats/1')).json(), { id: '1', from: 'real connection' })
  assert.equal(built.get('Database'), undefined)
})

test('a replacement whose dependency the declaring module cannot see fails, naming that module', async () => {
  // CatsService lives in FeatureModule, which DataModule (the declarer of Database) does not see.
  class NeedsCats { constructor (@Inject(CatsService) readonly cats: CatsService) {} }
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: AppModule, overrides: [{ provide: Database, useClass: NeedsCats }] }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
    assert.match(error.message, /Cannot resolve CatsService at index \[0\] of Database \(useClass NeedsCats\) in module DataModule/)
    return true
  })
})

test('overriding a token that nothing declares fails registration naming the token', async () => {
  class Unused {}
  for (const [override, name] of [
    [{ provide: Unused, useValue: {} }, 'Unused'],
    [{ provide: 'NOPE', useValue: 1 }, '"NOPE"'],
    [{ provide: Symbol('ghost'), useValue: 1 }, 'Symbol(ghost)']
  ] as const) {
    const app = Fastify()
    app.get('/plain', async () => 'plain')
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: AppModule, overrides: [override] }).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_UNKNOWN_OVERRIDE')
      assert.ok(error.message.includes(`no module declares ${name}`), error.message)
      return true
    })
    // Nothing was half-registered.
    assert.equal(app.hasDecorator('container'), false)
  }
})

test('a malformed override fails registration naming its index', async () => {
  for (const [overrides, pattern] of [
    [[{ provide: Database }], /overrides\[0\] \(Database\) must have exactly one of useClass, useValue, useFactory, useExisting; it has none/],
    [[Database, 42], /overrides\[1\] is number 42; a provider is a class or/]
  ] as const) {
    const app = Fastify()
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: AppModule, overrides } as any).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_PROVIDER')
      assert.match(error.message, pattern)
      return true
    })
  }
  await assert.rejects(async () => { await Fastify().register(decoratorPlugin, { module: AppModule, overrides: { provide: Database } } as any).ready() }, {
    code: 'FDP_ERR_INVALID_OPTIONS',
    message: 'decoratorPlugin option "overrides" must be an array of providers, given an object with keys [provide].'
  })
})

test('overriding a controller is refused: controllers are not providers', async () => {
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: AppModule, overrides: [{ provide: CatsController, useValue: {} }] }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_UNKNOWN_OVERRIDE')
    assert.match(error.message, /CatsController is a controller/)
    return true
  })
})

// Enhancers resolved through DI.
@Injectable()
class AuthGuard implements CanActivate {
  constructor () { count('AuthGuard') }
  canActivate (): boolean { throw new UnauthorizedException() }
}

class AllowAll implements CanActivate {
  canActivate () { return true }
}

@Injectable()
class Uppercase implements PipeTransform {
  constructor () { count('Uppercase') }
  transform (value: string) { return value.toUpperCase() }
}

@Injectable()
class Wrap implements NestInterceptor {
  constructor () { count('Wrap') }
  async intercept (_ctx: unknown, next: CallHandler) { return { wrapped: await next.handle() } }
}

@Catch(NotFoundException)
class NotFoundFilter implements ExceptionFilter {
  constructor () { count('NotFoundFilter') }
  catch (_e: NotFoundException, host: ArgumentsHost) { host.switchToHttp().getResponse().code(404).send({ filter: 'real' }) }
}

@Controller('secure')
@UseGuards(AuthGuard)
class SecureController {
  @Get('echo/:word')
  @UsePipes(Uppercase)
  @UseInterceptors(Wrap)
  echo (@Param('word') word: string) { return word }

  @Get('missing')
  @UseFilters(NotFoundFilter)
  missing () { throw new NotFoundException('gone') }
}

@Module({ controllers: [SecureController] })
class SecureModule {}

test('guard, pipe, interceptor and filter classes are the originals without overrides', async (t) => {
  built.clear()
  const app = await build(t, SecureModule)
  const res = await app.inject('/secure/echo/hi')
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  assert.equal(built.get('AuthGuard'), 1)
})

test('overrides swap an auth guard, a pipe, an interceptor and a filter resolved through DI; the originals are never built', async (t) => {
  built.clear()
  class Identity implements PipeTransform { transform (value: unknown) { return `${String(value)}!` } }
  class Tag implements NestInterceptor { async intercept (_ctx: unknown, next: CallHandler) { return { tagged: await next.handle() } } }
  class OtherFilter implements ExceptionFilter {
    catch (_e: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(410).send({ filter: 'override' }) }
  }
  const app = await build(t, SecureModule, {
    overrides: [
      { provide: AuthGuard, useClass: AllowAll },
      { provide: Uppercase, useClass: Identity },
      { provide: Wrap, useValue: new Tag() },
      { provide: NotFoundFilter, useClass: OtherFilter }
    ]
  })
  const echo = await app.inject('/secure/echo/hi')
  assert.equal(echo.statusCode, 200)
  assert.deepEqual(echo.json(), { tagged: 'hi!' })
  const missing = await app.inject('/secure/missing')
  assert.equal(missing.statusCode, 410)
  assert.deepEqual(missing.json(), { filter: 'override' })
  for (const name of ['AuthGuard', 'Uppercase', 'Wrap', 'NotFoundFilter']) assert.equal(built.get(name), undefined, name)
})

test('an override replaces a guard that a module lists as a provider, and a global guard class', async (t) => {
  built.clear()
  @Controller('open')
  class OpenController { @Get() get () { return 'open' } }
  @Module({ controllers: [OpenController], providers: [AuthGuard], exports: [AuthGuard] })
  class GuardedModule {}
  const denied = await build(t, GuardedModule, { globalGuards: [AuthGuard] })
  assert.equal((await denied.inject('/open')).statusCode, 401)
  built.clear()
  const app = await build(t, GuardedModule, { globalGuards: [AuthGuard], overrides: [{ provide: AuthGuard, useValue: new AllowAll() }] })
  const res = await app.inject('/open')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'open')
  assert.equal(built.get('AuthGuard'), undefined)
})

test('an overriding guard gets its dependencies from the module that uses it', async (t) => {
  @Injectable()
  class Tokens { valid (token: unknown) { return token === 'secret' } }
  class TokenGuard implements CanActivate {
    constructor (@Inject(Tokens) private readonly tokens: Tokens) {}
    canActivate (ctx: any) { return this.tokens.valid(ctx.switchToHttp().getRequest().headers['x-token']) }
  }
  @Module({ controllers: [SecureController], providers: [Tokens] })
  class WithTokens {}
  const app = await build(t, WithTokens, { overrides: [{ provide: AuthGuard, useClass: TokenGuard }, { provide: Uppercase, useClass: Uppercase }] })
  assert.equal((await app.inject('/secure/echo/hi')).statusCode, 403)
  const ok = await app.inject({ url: '/secure/echo/hi', headers: { 'x-token': 'secret' } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { wrapped: 'HI' })
})

test('an override replaces a parameter pipe class, built-in pipes included', async (t) => {
  class LenientInt implements PipeTransform { transform (value: string) { return Number.parseInt(value, 10) || 0 } }
  @Controller('pages')
  class PagesController {
    @Get(':n') page (@Param('n', ParseIntPipe) n: number) { return { n } }
  }
  @Module({ controllers: [PagesController] })
  class PagesModule {}
  const strict = await build(t, PagesModule)
  assert.equal((await strict.inject('/pages/abc')).statusCode, 400)
  const app = await build(t, PagesModule, { overrides: [{ provide: ParseIntPipe, useClass: LenientInt }] })
  const res = await app.inject('/pages/abc')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { n: 0 })
})
