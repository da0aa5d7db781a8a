import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Injectable, Inject, ConfigurableModuleBuilder, type DynamicModule
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

interface ConfigModuleOptions { folder: string }

// NestJS's documented example: a config module whose options come from register()/registerAsync().
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<ConfigModuleOptions>().build()

@Injectable()
class ConfigService {
  constructor (@Inject(MODULE_OPTIONS_TOKEN) readonly options: ConfigModuleOptions) {}
  get folder () { return this.options.folder }
}

@Module({ providers: [ConfigService], exports: [ConfigService] })
class ConfigModule extends ConfigurableModuleClass {}

@Injectable()
class EnvService { folder () { return './env' } }
@Module({ providers: [EnvService], exports: [EnvService] })
class EnvModule {}

test('register(options) gives a dynamic module of the subclass whose MODULE_OPTIONS_TOKEN provider is the options', async (t) => {
  const dynamic = ConfigModule.register({ folder: './config' })
  assert.equal(dynamic.module, ConfigModule)
  @Module({ imports: [dynamic] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(ConfigService).folder, './config')
  assert.equal(typeof MODULE_OPTIONS_TOKEN, 'string')
})

test('registerAsync({ useFactory, inject, imports }) builds the options from injected providers', async (t) => {
  @Module({
    imports: [ConfigModule.registerAsync({
      imports: [EnvModule],
      inject: [EnvService],
      useFactory: async (env: EnvService) => ({ folder: env.folder() })
    })]
  })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(ConfigService).folder, './env')
})

test('registerAsync({ useClass }) builds the options class in the module and calls its create()', async (t) => {
  @Injectable()
  class ConfigOptionsFactory {
    constructor (@Inject(EnvService) private readonly env: EnvService) {}
    async create (): Promise<ConfigModuleOptions> { return { folder: `${this.env.folder()}/class` } }
  }
  @Module({ imports: [ConfigModule.registerAsync({ imports: [EnvModule], useClass: ConfigOptionsFactory })] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(ConfigService).folder, './env/class')
})

test('registerAsync({ useExisting }) asks a provider of an imported module', async (t) => {
  @Injectable()
  class SharedOptions { create () { return { folder: './shared' } } }
  @Module({ providers: [SharedOptions], exports: [SharedOptions] })
  class SharedModule {}
  @Module({ imports: [ConfigModule.registerAsync({ imports: [SharedModule], useExisting: SharedOptions })] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(ConfigService).folder, './shared')
})

test('two register() calls with different options are two modules with their own options', async (t) => {
  @Injectable() class A { constructor (@Inject(ConfigService) readonly config: ConfigService) {} }
  @Module({ imports: [ConfigModule.register({ folder: 'a' })], providers: [A], exports: [A] })
  class AModule {}
  @Injectable() class B { constructor (@Inject(ConfigService) readonly config: ConfigService) {} }
  @Module({ imports: [ConfigModule.register({ folder: 'b' })], providers: [B], exports: [B] })
  class BModule {}
  @Module({ imports: [AModule, BModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(A).config.folder, 'a')
  assert.equal(app.container.get(B).config.folder, 'b')
})

test('setClassMethodName and setFactoryMethodName rename the static methods and the options factory method', async (t) => {
  const built = new ConfigurableModuleBuilder<ConfigModuleOptions>()
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createConfigOptions')
    .build()
  @Injectable()
  class RootConfig { constructor (@Inject(built.MODULE_OPTIONS_TOKEN) readonly options: ConfigModuleOptions) {} }
  @Module({ providers: [RootConfig], exports: [RootConfig] })
  class RootConfigModule extends built.ConfigurableModuleClass {}
  assert.equal((RootConfigModule as any).register, undefined)
  assert.equal((RootConfigModule as any).registerAsync, undefined)

  @Injectable()
  class Factory { createConfigOptions () { return { folder: './factory' } } }
  @Module({ imports: [RootConfigModule.forRoot({ folder: './root' })] })
  class SyncModule {}
  @Module({ imports: [RootConfigModule.forRootAsync({ useClass: Factory })] })
  class AsyncModule {}

  const sync = await build(t, SyncModule)
  assert.equal(sync.container.get(RootConfig).options.folder, './root')
  const async = await build(t, AsyncModule)
  assert.equal(async.container.get(RootConfig).options.folder, './factory')
  assert.notEqual(built.MODULE_OPTIONS_TOKEN, MODULE_OPTIONS_TOKEN, 'each builder has its own token')
})

test('setExtras: extras default the definition transform\'s input and stay out of the options', async (t) => {
  const { ConfigurableModuleClass: GlobalizableClass, MODULE_OPTIONS_TOKEN: TOKEN } = new ConfigurableModuleBuilder<ConfigModuleOptions>()
    .setExtras({ isGlobal: false }, (definition: DynamicModule, extras: { isGlobal: boolean }) => ({ ...definition, global: extras.isGlobal }))
    .build()
  @Injectable()
  class Settings { constructor (@Inject(TOKEN) readonly options: ConfigModuleOptions & { isGlobal?: boolean }) {} }
  @Module({ providers: [Settings], exports: [Settings] })
  class SettingsModule extends GlobalizableClass {}
  @Injectable()
  class Deep { constructor (@Inject(Settings) readonly settings: Settings) {} }
  @Module({ providers: [Deep], exports: [Deep] })
  class DeepModule {}

  const local = SettingsModule.register({ folder: './local' })
  assert.equal(local.global, false)
  const global = SettingsModule.register({ folder: './global', isGlobal: true })
  assert.equal(global.global, true)

  @Module({ imports: [global, DeepModule] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual(app.container.get(Deep).settings.options, { folder: './global' })
})

test('moduleName and optionsInjectionToken name the options token', () => {
  assert.equal(new ConfigurableModuleBuilder({ moduleName: 'Config' }).build().MODULE_OPTIONS_TOKEN, 'CONFIG_MODULE_OPTIONS')
  assert.equal(new ConfigurableModuleBuilder({ moduleName: 'HttpCache' }).build().MODULE_OPTIONS_TOKEN, 'HTTP_CACHE_MODULE_OPTIONS')
  const token = Symbol('options')
  assert.equal(new ConfigurableModuleBuilder({ optionsInjectionToken: token }).build().MODULE_OPTIONS_TOKEN, token)
})

test('a subclass may wrap the generated methods, typed by OPTIONS_TYPE and ASYNC_OPTIONS_TYPE', async (t) => {
  @Injectable() class Extra { value = 'extra' }
  @Module({ providers: [ConfigService], exports: [ConfigService] })
  class WrappedModule extends ConfigurableModuleClass {
    static register (options: typeof OPTIONS_TYPE): DynamicModule {
      const definition = super.register(options)
      return { ...definition, providers: [...definition.providers ?? [], Extra], exports: [Extra] }
    }

    static registerAsync (options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
      return super.registerAsync(options)
    }
  }
  @Module({ imports: [WrappedModule.register({ folder: './wrapped' })] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Extra).value, 'extra')
  assert.equal(app.container.get(ConfigService).folder, './wrapped')
})

test('OPTIONS_TYPE and ASYNC_OPTIONS_TYPE are types only: reading them throws', () => {
  assert.throws(() => (OPTIONS_TYPE as any).folder, { message: '"OPTIONS_TYPE" is only a type: use it as typeof OPTIONS_TYPE, not as a value.' })
  assert.throws(() => (ASYNC_OPTIONS_TYPE as any).useFactory, { message: '"ASYNC_OPTIONS_TYPE" is only a type: use it as typeof ASYNC_OPTIONS_TYPE, not as a value.' })
})

test('registerAsync() without useFactory, useClass or useExisting fails, naming the module and the fix', () => {
  assert.throws(() => ConfigModule.registerAsync({} as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: 'ConfigModule.registerAsync() needs one of useFactory, useClass or useExisting to make the options, given an object with keys [].'
  })
  assert.throws(() => ConfigModule.registerAsync({ useFactory: () => ({ folder: '' }), useClass: EnvService } as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: 'ConfigModule.registerAsync() needs one of useFactory, useClass or useExisting to make the options, given an object with keys [useFactory, useClass].'
  })
})

test('provideInjectionTokensFrom adds the providers that inject names; an options class without its method fails naming it', async (t) => {
  const parent = [{ provide: 'FOLDER', useValue: './given' }, { provide: 'UNUSED', useValue: 'x' }]
  @Module({
    imports: [ConfigModule.registerAsync({
      provideInjectionTokensFrom: parent,
      inject: [{ token: 'FOLDER', optional: false }],
      useFactory: (folder: string) => ({ folder })
    })]
  })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.equal(app.container.get(ConfigService).folder, './given')
  assert.throws(() => app.container.get('UNUSED'), { code: 'FDP_ERR_UNKNOWN_TOKEN' })

  class NoCreate { make () { return { folder: '' } } }
  @Module({ imports: [ConfigModule.registerAsync({ useClass: NoCreate as any })] })
  class BrokenModule {}
  const error = await registrationError({ module: BrokenModule })
  assert.equal(error.code, 'FDP_ERR_PROVIDER_FAILED')
  assert.match(error.message, /NoCreate, the options factory of ConfigModule\.registerAsync\(\), has no create\(\) method\./)
})
