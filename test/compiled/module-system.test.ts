// Runs on tsc output (emitDecoratorMetadata): the module system's features injected by type.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Controller, Get, Injectable, Inject, Optional, Scope, INQUIRER, ModuleRef, ConfigurableModuleBuilder,
  forwardRef, APP_GUARD, type CanActivate, type DynamicModule
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

test('@Inject() on a property injects by the property\'s type; @Optional() by type too', async (t) => {
  @Injectable() class Repo { all () { return ['a'] } }
  @Injectable() class Absent {}
  @Injectable()
  class Service {
    @Inject() readonly repo!: Repo
    @Optional() @Inject() readonly absent?: Absent
  }
  @Controller('items')
  class Items {
    @Inject() private readonly service!: Service
    @Get() all () { return [...this.service.repo.all(), this.service.absent === undefined] }
  }
  @Module({ controllers: [Items], providers: [Repo, Service] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/items')).json(), ['a', true])
})

test('@Inject() on a property typed with an interface fails naming the property', async () => {
  interface Clock { now: () => number }
  @Injectable()
  class Service { @Inject() readonly clock!: Clock }
  @Module({ providers: [Service] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_METADATA')
  assert.match(error.message, /^Service in module AppModule: the property "clock" has the type Object at run time/)
})

// Emitted type metadata reads the parameter's type when the class is defined: a class defined later
// (or in a file of an import cycle) is not initialized yet there. NestJS's WrapperType keeps it out.
type WrapperType<T> = T

test('forwardRef between singletons on tsc output, the later class typed through WrapperType', async (t) => {
  @Injectable()
  class CatsService {
    constructor (@Inject(forwardRef(() => CommonService)) readonly common: WrapperType<CommonService>) {}
    name () { return 'cats' }
  }
  @Injectable()
  class CommonService {
    constructor (@Inject(forwardRef(() => CatsService)) readonly cats: CatsService) {}
    name () { return 'common' }
  }
  @Module({ providers: [CatsService, CommonService] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(CatsService).common.cats.name(), 'cats')
  assert.equal(app.container.get(CommonService).cats, app.container.get(CatsService))
})

test('ModuleRef and a transient with INQUIRER, injected by type', async (t) => {
  @Injectable({ scope: Scope.TRANSIENT })
  class ContextLogger {
    constructor (@Inject(INQUIRER) private readonly parent: object) {}
    context () { return this.parent.constructor.name }
  }
  @Injectable()
  class CatsService {
    constructor (readonly logger: ContextLogger, readonly moduleRef: ModuleRef) {}
  }
  @Module({ providers: [ContextLogger, CatsService] })
  class AppModule {}

  const app = await build(t, AppModule)
  const cats = app.container.get(CatsService)
  assert.equal(cats.logger.context(), 'CatsService')
  assert.equal(cats.moduleRef.get(CatsService), cats)
  const made = await cats.moduleRef.create(CatsService)
  assert.notEqual(made, cats)
  assert.equal(made.logger.context(), 'CatsService')
})

test('a configurable module\'s options and an APP_GUARD, injected by type', async (t) => {
  interface FlagsOptions { enabled: boolean }
  const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<FlagsOptions>().setClassMethodName('forRoot').build()
  @Injectable()
  class Flags {
    constructor (@Inject(MODULE_OPTIONS_TOKEN) private readonly options: FlagsOptions) {}
    enabled () { return this.options.enabled }
  }
  @Module({ providers: [Flags], exports: [Flags] })
  class FlagsModule extends ConfigurableModuleClass {}
  @Injectable()
  class FlagGuard implements CanActivate {
    constructor (private readonly flags: Flags) {}
    canActivate () { return this.flags.enabled() }
  }
  @Controller('flagged')
  class Flagged { @Get() get () { return 'on' } }
  const flags = (enabled: boolean): DynamicModule => FlagsModule.forRoot({ enabled })

  @Module({ imports: [flags(true)], controllers: [Flagged], providers: [{ provide: APP_GUARD, useClass: FlagGuard }] })
  class OnModule {}
  @Module({ imports: [flags(false)], controllers: [Flagged], providers: [{ provide: APP_GUARD, useClass: FlagGuard }] })
  class OffModule {}

  const on = await build(t, OnModule)
  assert.equal((await on.inject('/flagged')).statusCode, 200)
  const off = await build(t, OffModule)
  assert.equal((await off.inject('/flagged')).statusCode, 403)
})
