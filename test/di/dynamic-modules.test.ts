import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Global, Controller, Get, Injectable, Inject, forwardRef, type DynamicModule, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

const CONNECTION = Symbol('connection')

@Injectable()
class Connection {
  constructor (@Inject('DB_URL') readonly url: string) {}
}

// NestJS's documented shape: static providers in @Module, the configured ones from forRoot().
@Module({ providers: [Connection], exports: [Connection] })
class DatabaseModule {
  static forRoot (url: string): DynamicModule {
    const urlProvider = { provide: 'DB_URL', useValue: url }
    return {
      module: DatabaseModule,
      providers: [urlProvider, { provide: CONNECTION, useExisting: Connection }],
      exports: [urlProvider, CONNECTION]
    }
  }
}

test('a DynamicModule in imports adds its providers, controllers and exports (tokens or provider objects) to those of its class', async (t) => {
  @Controller('db')
  class DbController {
    constructor (@Inject(Connection) private readonly connection: Connection) {}
    @Get() url () { return this.connection.url }
  }
  @Module({})
  class HealthModule {
    static register (): DynamicModule {
      return { module: HealthModule, controllers: [DbController], imports: [DatabaseModule.forRoot('db://health')] }
    }
  }
  @Injectable()
  class Reader { constructor (@Inject(CONNECTION) readonly connection: Connection, @Inject('DB_URL') readonly url: string) {} }
  @Module({ imports: [DatabaseModule.forRoot('db://main'), HealthModule.register()], providers: [Reader] })
  class AppModule {}

  const app = await build(t, AppModule)
  const reader = app.container.get(Reader)
  assert.equal(reader.url, 'db://main')
  assert.ok(reader.connection instanceof Connection)
  assert.equal(reader.connection.url, 'db://main')
  const res = await app.inject('/db')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'db://health')
})

test('the same class imported with different dynamic metadata is two modules, each with its own instances', async (t) => {
  let modules = 0
  @Injectable()
  class Queue { constructor (@Inject('QUEUE') readonly name: string) {} }
  @Module({ providers: [Queue], exports: [Queue] })
  class QueueModule {
    constructor () { modules++ }
    static register (name: string): DynamicModule {
      return { module: QueueModule, providers: [{ provide: 'QUEUE', useValue: name }] }
    }
  }
  @Injectable() class Mailer { constructor (@Inject(Queue) readonly queue: Queue) {} }
  @Module({ imports: [QueueModule.register('mail')], providers: [Mailer], exports: [Mailer] })
  class MailModule {}
  @Injectable() class Billing { constructor (@Inject(Queue) readonly queue: Queue) {} }
  @Module({ imports: [QueueModule.register('billing')], providers: [Billing], exports: [Billing] })
  class BillingModule {}
  @Module({ imports: [MailModule, BillingModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Mailer).queue.name, 'mail')
  assert.equal(app.container.get(Billing).queue.name, 'billing')
  assert.notEqual(app.container.get(Mailer).queue, app.container.get(Billing).queue)
  assert.equal(modules, 2)
})

test('one DynamicModule object imported in several places is one module', async (t) => {
  let built = 0
  @Injectable() class Cache { constructor () { built++ } }
  @Module({})
  class CacheModule {
    static register (): DynamicModule { return { module: CacheModule, providers: [Cache], exports: [Cache] } }
  }
  const shared = CacheModule.register()
  @Injectable() class A { constructor (@Inject(Cache) readonly cache: Cache) {} }
  @Module({ imports: [shared], providers: [A], exports: [A] })
  class AModule {}
  @Injectable() class B { constructor (@Inject(Cache) readonly cache: Cache) {} }
  @Module({ imports: [shared], providers: [B], exports: [B] })
  class BModule {}
  @Module({ imports: [AModule, BModule, shared] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(built, 1)
  assert.equal(app.container.get(A).cache, app.container.get(B).cache)
})

test('two calls that give equal metadata are two modules, as NestJS 12 does by default', async (t) => {
  // NestJS 12 tells modules apart by reference (moduleIdGeneratorAlgorithm 'reference'): only
  // the same object, kept in a constant, is one module.
  let built = 0
  @Injectable() class Pool { constructor (@Inject('POOL_URL') readonly url: string) { built++ } }
  @Module({})
  class PoolModule {
    static forRoot (url: string): DynamicModule { return { module: PoolModule, providers: [{ provide: 'POOL_URL', useValue: url }, Pool], exports: [Pool] } }
  }
  @Injectable() class A { constructor (@Inject(Pool) readonly pool: Pool) {} }
  @Module({ imports: [PoolModule.forRoot('db://a')], providers: [A], exports: [A] })
  class AModule {}
  @Injectable() class B { constructor (@Inject(Pool) readonly pool: Pool) {} }
  @Module({ imports: [PoolModule.forRoot('db://a')], providers: [B], exports: [B] })
  class BModule {}
  @Module({ imports: [AModule, BModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.notEqual(app.container.get(A).pool, app.container.get(B).pool)
  assert.equal(app.container.get(B).pool.url, 'db://a')
  assert.equal(built, 2)
})

test('Promises of a DynamicModule or of a module class in imports are awaited', async (t) => {
  @Injectable() class Settings { constructor (@Inject('SETTINGS') readonly values: Record<string, string>) {} }
  @Module({})
  class SettingsModule {
    static async forRootAsync (): Promise<DynamicModule> {
      await new Promise((resolve) => setImmediate(resolve))
      return { module: SettingsModule, providers: [{ provide: 'SETTINGS', useValue: { mode: 'async' } }, Settings], exports: [Settings] }
    }
  }
  @Injectable() class Clock { now () { return 7 } }
  @Module({ providers: [Clock], exports: [Clock] })
  class ClockModule {}
  @Module({ imports: [SettingsModule.forRootAsync(), Promise.resolve(ClockModule)] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual(app.container.get(Settings).values, { mode: 'async' })
  assert.equal(app.container.get(Clock).now(), 7)
})

test('a module class without @Module() works through a DynamicModule', async (t) => {
  @Injectable() class Greeter { greet () { return 'hello' } }
  class PlainModule {
    static register (): DynamicModule { return { module: PlainModule, providers: [Greeter], exports: [Greeter] } }
  }
  @Controller('greet')
  class GreetController {
    constructor (@Inject(Greeter) private readonly greeter: Greeter) {}
    @Get() greet () { return this.greeter.greet() }
  }
  @Module({ imports: [PlainModule.register()], controllers: [GreetController] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject('/greet')).body, 'hello')
})

test('global: true makes a dynamic module\'s exports visible to every module', async (t) => {
  @Injectable() class Config { constructor (@Inject('ENV') readonly env: string) {} }
  @Module({})
  class ConfigModule {
    static forRoot (env: string): DynamicModule {
      return { module: ConfigModule, global: true, providers: [{ provide: 'ENV', useValue: env }, Config], exports: [Config] }
    }
  }
  @Injectable() class Deep { constructor (@Inject(Config) readonly config: Config) {} }
  @Module({ providers: [Deep], exports: [Deep] })
  class DeepModule {}
  @Module({ imports: [DeepModule] })
  class MiddleModule {}
  @Module({ imports: [ConfigModule.forRoot('test'), MiddleModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Deep).config.env, 'test')
})

test('a dynamic module in exports, or its class, re-exports what that import exports', async (t) => {
  @Injectable() class Store { constructor (@Inject('STORE') readonly name: string) {} }
  @Module({ providers: [Store], exports: [Store] })
  class StoreModule {
    static register (name: string): DynamicModule { return { module: StoreModule, providers: [{ provide: 'STORE', useValue: name }] } }
  }
  const users = StoreModule.register('users')
  @Module({ imports: [users], exports: [users] })
  class UsersModule {}
  @Module({ imports: [StoreModule.register('orders')], exports: [StoreModule] })
  class OrdersModule {}
  @Injectable() class UsersReader { constructor (@Inject(Store) readonly store: Store) {} }
  @Module({ imports: [UsersModule], providers: [UsersReader], exports: [UsersReader] })
  class UsersFeature {}
  @Injectable() class OrdersReader { constructor (@Inject(Store) readonly store: Store) {} }
  @Module({ imports: [OrdersModule], providers: [OrdersReader], exports: [OrdersReader] })
  class OrdersFeature {}
  @Module({ imports: [UsersFeature, OrdersFeature] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(UsersReader).store.name, 'users')
  assert.equal(app.container.get(OrdersReader).store.name, 'orders')
})

test('a dynamic module\'s own imports may be dynamic, Promises or forwardRef, and its module class gets lifecycle hooks', async (t) => {
  const inits: string[] = []
  @Injectable() class Token { constructor (@Inject('SECRET') readonly secret: string) {} }
  @Module({})
  class SecretModule {
    static register (secret: string): DynamicModule { return { module: SecretModule, providers: [{ provide: 'SECRET', useValue: secret }, Token], exports: [Token] } }
  }
  @Module({})
  class AuthModule implements OnModuleInit {
    constructor (@Inject(Token) readonly token: Token) {}
    onModuleInit () { inits.push(`AuthModule ${this.token.secret}`) }
    static forRoot (): DynamicModule {
      return { module: AuthModule, imports: [Promise.resolve(SecretModule.register('s3cret'))], exports: [SecretModule] }
    }
  }
  @Injectable() class Guarded { constructor (@Inject(Token) readonly token: Token) {} }
  @Module({ imports: [forwardRef(() => AuthModule.forRoot())], providers: [Guarded] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Guarded).token.secret, 's3cret')
  assert.deepEqual(inits, ['AuthModule s3cret'])
})

test('a DynamicModule without a module class fails, naming the importing module, the entry and the fix', async () => {
  @Module({ imports: [{ providers: [] } as unknown as DynamicModule] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_NOT_A_MODULE')
  assert.equal(error.message, 'entry 0 of AppModule\'s imports is an object with keys [providers], which is not a module. ' +
    'A dynamic module names its class: { module: SomeModule, providers, exports, ... }.')

  @Module({})
  class Target {}
  @Module({ imports: [{ module: 'Target', providers: [] } as unknown as DynamicModule] })
  class StringModule {}
  const named = await registrationError({ module: StringModule })
  assert.equal(named.code, 'FDP_ERR_NOT_A_MODULE')
  assert.match(named.message, /^entry 0 of StringModule's imports is a dynamic module whose "module" is string "Target"; give the module class itself/)
  void Target
})

test('a DynamicModule\'s other keys are left alone, as NestJS leaves them; a non-array list fails like @Module()', async (t) => {
  @Injectable() class Feature { readonly name = 'feature' }
  @Module({})
  class FeatureModule {}
  @Controller('feature')
  class FeatureController {
    constructor (@Inject(Feature) readonly feature: Feature) {}
    @Get() get () { return this.feature.name }
  }
  const dynamic = { module: FeatureModule, providers: [Feature], exports: [Feature], extra: { any: 'thing' }, inject: ['library data'] }
  @Module({ imports: [dynamic as DynamicModule], controllers: [FeatureController] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.equal((await app.inject('/feature')).body, 'feature')

  @Module({ imports: [{ module: FeatureModule, providers: {} } as unknown as DynamicModule] })
  class ListModule {}
  const list = await registrationError({ module: ListModule })
  assert.equal(list.code, 'FDP_ERR_INVALID_DECLARATION')
  assert.equal(list.message, 'entry 0 of ListModule\'s imports: the dynamic module FeatureModule has "providers" an object with keys [], which must be an array.')
})

test('an async dynamic module that rejects fails registration with its error as the cause, and only then', async () => {
  const cause = new Error('vault unreachable')
  @Module({})
  class VaultModule {
    static async forRootAsync (): Promise<DynamicModule> { throw cause }
  }
  @Module({})
  class Other {}
  @Module({ imports: [Other, VaultModule.forRootAsync()] })
  class AppModule {}
  // Rejected long before registration: reported then, never as an unhandled rejection.
  await new Promise((resolve) => setTimeout(resolve, 10))
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_DYNAMIC_MODULE_FAILED')
  assert.equal(error.message, 'entry 1 of AppModule\'s imports is a Promise that rejected: vault unreachable. ' +
    'The function that made the dynamic module failed; see the cause.')
  assert.equal(error.cause, cause)
})

test('a Promise in imports that gives something other than a module fails naming the entry', async () => {
  @Injectable() class NotAModule {}
  @Module({ imports: [Promise.resolve(NotAModule) as unknown as DynamicModule] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_NOT_A_MODULE')
  assert.match(error.message, /^entry 0 of AppModule's imports \(a Promise\) gave class NotAModule, which is not a module\. It is an @Injectable\(\) class: list it in providers, not in imports\./)
})

test('exporting a dynamic module that is not imported fails like exporting a module class', async () => {
  @Module({})
  class StoreModule {
    static register (): DynamicModule { return { module: StoreModule } }
  }
  @Module({ exports: [StoreModule.register()] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_INVALID_EXPORT')
  assert.match(error.message, /^AppModule exports the module StoreModule without importing it \(exports\[0\]\)/)
})

test('a global dynamic module is visible to a module that a Global() class module imports too', async (t) => {
  @Injectable() class Flags { on = true }
  @Module({})
  class FlagsModule {
    static forRoot (): DynamicModule { return { module: FlagsModule, global: true, providers: [Flags], exports: [Flags] } }
  }
  @Injectable() class Audit { constructor (@Inject(Flags) readonly flags: Flags) {} }
  @Global() @Module({ providers: [Audit], exports: [Audit] })
  class AuditModule {}
  @Module({ imports: [AuditModule, FlagsModule.forRoot()] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Audit).flags.on, true)
})

test('providers with NestJS\'s numeric scopes (as NestJS packages\' dynamic modules declare them) get those scopes; another number is refused', async (t) => {
  let built = 0
  @Injectable()
  class Counter { readonly n = ++built }
  @Module({})
  class ScopedModule {
    static register (): DynamicModule {
      return {
        module: ScopedModule,
        providers: [
          { provide: 'PER_REQUEST', useFactory: () => ({ n: ++built }), scope: 2 as any },
          { provide: 'EACH_TIME', useClass: Counter, scope: 1 as any },
          { provide: 'ONCE', useFactory: () => ({ n: ++built }), scope: 0 as any }
        ],
        exports: ['PER_REQUEST', 'EACH_TIME', 'ONCE']
      }
    }
  }
  @Controller('scoped')
  class ScopedController {
    constructor (@Inject('PER_REQUEST') readonly perRequest: { n: number }, @Inject('EACH_TIME') readonly eachTime: Counter, @Inject('ONCE') readonly once: { n: number }) {}
    @Get() get () { return { perRequest: this.perRequest.n, eachTime: this.eachTime.n, once: this.once.n } }
  }
  @Module({ imports: [ScopedModule.register()], controllers: [ScopedController] })
  class AppModule {}
  const app = await build(t, AppModule)
  const first = (await app.inject('/scoped')).json()
  const second = (await app.inject('/scoped')).json()
  assert.equal(first.once, second.once, 'scope 0 is one instance')
  assert.notEqual(first.perRequest, second.perRequest, 'scope 2 is one per request')
  assert.notEqual(first.eachTime, second.eachTime, 'scope 1 (transient) in a request-scoped controller is made per request')

  @Module({ providers: [{ provide: 'BAD', useValue: 1 }, { provide: 'WRONG', useFactory: () => 1, scope: 7 as any }] })
  class BadModule {}
  const error = await registrationError({ module: BadModule })
  assert.equal(error.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.match(error.message, /scope must be DEFAULT, REQUEST or TRANSIENT, given number 7/)
})

test('a class with no decorator in imports is an empty module (NestJS\'s @Module({}) writes no metadata); its dynamic module gives it what it declares', async (t) => {
  // As @nestjs/passport's PassportModule: undecorated, imported as a class or through register().
  class PassportLikeModule {
    static register (): DynamicModule {
      return { module: PassportLikeModule, providers: [{ provide: 'OPTIONS', useValue: { session: false } }], exports: ['OPTIONS'] }
    }
  }
  class EmptyModule {}
  @Controller('options')
  class OptionsController {
    constructor (@Inject('OPTIONS') readonly options: object) {}
    @Get() get () { return this.options }
  }
  @Module({ imports: [EmptyModule, PassportLikeModule.register()], controllers: [OptionsController], exports: [EmptyModule] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/options')).json(), { session: false })

  // A provider or a controller class in imports still fails with the fix.
  @Injectable() class Service {}
  @Module({ imports: [Service] })
  class WithService {}
  assert.match((await registrationError({ module: WithService })).message, /It is an @Injectable\(\) class: list it in providers, not in imports\./)
  @Controller('x') class SomeController {}
  @Module({ imports: [SomeController] })
  class WithController {}
  assert.match((await registrationError({ module: WithController })).message, /It is a @Controller\(\) class: list it in a module's controllers\./)
})
