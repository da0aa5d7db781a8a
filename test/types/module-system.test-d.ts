// Type tests for dynamic modules, forwardRef, property injection, APP_* providers, ModuleRef and
// ConfigurableModuleBuilder; each @ts-expect-error must be an error.
import {
  Module, Injectable, Inject, Optional, forwardRef, ModuleRef, ContextIdFactory, ConfigurableModuleBuilder, INQUIRER,
  APP_GUARD, APP_PIPE, APP_INTERCEPTOR, APP_FILTER, Scope,
  type CanActivate, type ContextId, type DynamicModule, type ForwardReference, type ModuleMetadata, type Provider
} from '../../plugin/index.js'

@Injectable()
class Cats { all (): string[] { return [] } }

@Module({})
class DbModule {
  static forRoot (url: string): DynamicModule {
    return { module: DbModule, global: true, providers: [{ provide: 'URL', useValue: url }], exports: ['URL'] }
  }

  static async forRootAsync (): Promise<DynamicModule> { return DbModule.forRoot('db://') }
}

// imports: classes, dynamic modules, Promises of either, forward references.
const metadata: ModuleMetadata = {
  imports: [DbModule, DbModule.forRoot('x'), DbModule.forRootAsync(), Promise.resolve(DbModule), forwardRef(() => DbModule)],
  exports: [DbModule, DbModule.forRoot('x'), Cats, 'URL', { provide: 'x', useValue: 1 }]
}
void metadata

// @ts-expect-error: a dynamic module names its class
const noModule: DynamicModule = { providers: [] }
// @ts-expect-error: imports take modules, not strings
const badImport: ModuleMetadata = { imports: ['DbModule'] }
void [noModule, badImport]

const ref: ForwardReference<typeof Cats> = forwardRef(() => Cats)
void ref

// Property injection: @Inject and @Optional decorate properties as well as parameters.
@Injectable()
class Consumer {
  @Inject(Cats) readonly cats!: Cats
  @Inject() readonly byType!: Cats
  @Optional() @Inject('maybe') readonly maybe?: string
  @Inject(forwardRef(() => Cats)) readonly later!: Cats
  constructor (@Inject(forwardRef(() => Cats)) readonly first: Cats, @Inject(ModuleRef) readonly moduleRef: ModuleRef) {}
}

@Injectable({ scope: Scope.TRANSIENT })
class Logger { constructor (@Inject(INQUIRER) readonly parent: object) {} }
void Logger

class AllowAll implements CanActivate { canActivate (): boolean { return true } }
const appProviders: Provider[] = [
  { provide: APP_GUARD, useClass: AllowAll },
  { provide: APP_PIPE, useValue: { transform: (value: unknown) => value } },
  { provide: APP_INTERCEPTOR, useFactory: () => ({ intercept: () => 1 }) },
  { provide: APP_FILTER, useExisting: AllowAll }
]
void appProviders

// ModuleRef: get is typed by the token, resolve and create give promises.
async function useModuleRef (moduleRef: ModuleRef): Promise<void> {
  const cats: Cats = moduleRef.get(Cats)
  const strict: Cats = moduleRef.get(Cats, { strict: true })
  const named: number = moduleRef.get<number>('count')
  const contextId: ContextId = ContextIdFactory.create()
  const resolved: Cats = await moduleRef.resolve(Cats, contextId)
  const created: Consumer = await moduleRef.create(Consumer)
  // @ts-expect-error: get is synchronous
  void moduleRef.get(Cats).then
  // @ts-expect-error: strict is a boolean
  moduleRef.get(Cats, { strict: 'yes' })
  void [cats, strict, named, resolved, created]
}
void useModuleRef

// ConfigurableModuleBuilder: the methods are named and typed by the builder.
interface ConfigOptions { folder: string }
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } = new ConfigurableModuleBuilder<ConfigOptions>().build()
class ConfigModule extends ConfigurableModuleClass {}
const token: string | symbol = MODULE_OPTIONS_TOKEN
const sync: DynamicModule = ConfigModule.register({ folder: './config' })
const async: DynamicModule = ConfigModule.registerAsync({ useFactory: () => ({ folder: './x' }), inject: [Cats], imports: [DbModule] })
// @ts-expect-error: folder is a string
ConfigModule.register({ folder: 1 })
// @ts-expect-error: the options are ConfigOptions
ConfigModule.register({ path: './config' })
// @ts-expect-error: the factory gives ConfigOptions
ConfigModule.registerAsync({ useFactory: () => ({ path: './x' }) })
const options: typeof OPTIONS_TYPE = { folder: './x' }
const asyncOptions: typeof ASYNC_OPTIONS_TYPE = { useClass: class { create () { return { folder: '' } } } }
void [token, sync, async, options, asyncOptions, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE]

const renamed = new ConfigurableModuleBuilder<ConfigOptions>({ moduleName: 'Config' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createConfigOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build()
class RootConfigModule extends renamed.ConfigurableModuleClass {}
RootConfigModule.forRoot({ folder: './x', isGlobal: true })
RootConfigModule.forRootAsync({ useClass: class { createConfigOptions () { return { folder: '' } } } })
// @ts-expect-error: register was renamed forRoot
RootConfigModule.register({ folder: './x' })
// @ts-expect-error: the options class implements createConfigOptions, not create
RootConfigModule.forRootAsync({ useClass: class { create () { return { folder: '' } } } })
