import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyRequest } from 'fastify'
import {
  Module, Controller, Get, Injectable, Inject, Optional, Scope, REQUEST, UseGuards,
  type CanActivate, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

const PREFIX = Symbol('prefix')

test('@Inject(token) on properties injects class, string and symbol tokens once the constructor has run', async (t) => {
  const seen: unknown[] = []
  @Injectable() class Repo { all () { return ['a'] } }
  @Injectable()
  class Service implements OnModuleInit {
    @Inject(Repo) readonly repo!: Repo
    @Inject('NAME') readonly name!: string
    @Inject(PREFIX) readonly prefix!: string
    constructor () { seen.push(this.repo) }
    onModuleInit () { seen.push(this.repo) }
  }
  @Controller('items')
  class Items {
    @Inject(Service) private readonly service!: Service
    @Get() all () { return [this.service.prefix, this.service.name, ...this.service.repo.all()] }
  }
  @Module({ controllers: [Items], providers: [Repo, Service, { provide: 'NAME', useValue: 'items' }, { provide: PREFIX, useValue: '>' }] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/items')).json(), ['>', 'items', 'a'])
  assert.equal(seen[0], undefined, 'properties are not there yet in the constructor')
  assert.equal(seen[1], app.container.get(Repo))
})

test('@Optional() on a property keeps its initial value when the token is missing', async (t) => {
  @Injectable() class Present { value = 'present' }
  @Injectable()
  class Settings {
    @Optional() @Inject('TIMEOUT') readonly timeout: number = 30
    @Inject('MISSING') @Optional() readonly missing?: string
    @Optional() @Inject(Present) readonly present?: Present
  }
  @Module({ providers: [Settings, Present] })
  class AppModule {}

  const app = await build(t, AppModule)
  const settings = app.container.get(Settings)
  assert.equal(settings.timeout, 30)
  assert.equal(settings.missing, undefined)
  assert.equal(settings.present, app.container.get(Present))
})

test('a missing property dependency without @Optional() fails, naming the class, the property and the module', async () => {
  @Injectable()
  class Needs { @Inject('CONFIG') readonly config!: unknown }
  @Module({ providers: [Needs] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.equal(error.message, 'Cannot resolve "CONFIG" for the property "config" of Needs in module AppModule. Add "CONFIG" to AppModule\'s providers, or import a module that exports it.')
})

test('injected properties are inherited, and a subclass may add its own', async (t) => {
  @Injectable() class Logger { name = 'logger' }
  @Injectable() class Clock { now () { return 1 } }
  @Injectable()
  class Base { @Inject(Logger) readonly logger!: Logger }
  @Injectable()
  class Child extends Base { @Inject(Clock) readonly clock!: Clock }
  @Module({ providers: [Logger, Clock, Base, Child] })
  class AppModule {}

  const app = await build(t, AppModule)
  const child = app.container.get(Child)
  assert.equal(child.logger, app.container.get(Logger))
  assert.equal(child.clock.now(), 1)
  assert.equal((app.container.get(Base) as Partial<Child>).clock, undefined, 'the base class does not get the subclass\'s properties')
})

test('a property that injects a request-scoped provider makes its class request-scoped', async (t) => {
  let built = 0
  @Injectable({ scope: Scope.REQUEST })
  class RequestInfo {
    @Inject(REQUEST) readonly request!: FastifyRequest
    constructor () { built++ }
  }
  @Controller('who')
  class Who {
    @Inject(RequestInfo) readonly info!: RequestInfo
    @Get() get () { return this.info.request.headers['x-user'] }
  }
  @Module({ controllers: [Who], providers: [RequestInfo] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ url: '/who', headers: { 'x-user': 'ann' } })).body, 'ann')
  assert.equal((await app.inject({ url: '/who', headers: { 'x-user': 'bob' } })).body, 'bob')
  assert.equal(built, 2)
})

test('guards and module classes take property injection too', async (t) => {
  @Injectable() class Policy { allows (user: unknown) { return user === 'root' } }
  @Injectable()
  class PolicyGuard implements CanActivate {
    @Inject(Policy) readonly policy!: Policy
    canActivate (ctx: any) { return this.policy.allows(ctx.switchToHttp().getRequest().headers['x-user']) }
  }
  @Controller('admin') @UseGuards(PolicyGuard)
  class Admin { @Get() get () { return 'ok' } }
  let moduleSaw: unknown
  @Module({ controllers: [Admin], providers: [Policy] })
  class AppModule implements OnModuleInit {
    @Inject(Policy) readonly policy!: Policy
    onModuleInit () { moduleSaw = this.policy }
  }

  const app = await build(t, AppModule)
  assert.equal((await app.inject({ url: '/admin', headers: { 'x-user': 'root' } })).statusCode, 200)
  assert.equal((await app.inject({ url: '/admin', headers: { 'x-user': 'ann' } })).statusCode, 403)
  assert.equal(moduleSaw, app.container.get(Policy))
})

test('@Inject() on a property with no token and no type metadata says how to fix it', async () => {
  @Injectable() class Repo {}
  @Injectable()
  class Service { @Inject() readonly repo!: Repo }
  @Module({ providers: [Repo, Service] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_METADATA')
  assert.equal(error.message, 'Service in module AppModule: the property "repo" has @Inject() with no token and no type metadata. ' +
    'tsx and esbuild emit no decorator metadata; name the token: @Inject(SomeService) repo, or compile with tsc and "emitDecoratorMetadata": true.')
})

test('@Inject(undefined) on a property fails at declaration, naming the class and property', () => {
  assert.throws(() => {
    @Injectable() class Broken { @Inject(undefined as any) readonly dep: unknown }
    void Broken
  }, {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: '@Inject() on the property "dep" of Broken was given undefined: the token is not defined yet (a circular import between files?). Use forwardRef(() => Token).'
  })
})

test('@Inject() and @Optional() on a static property or a method parameter fail at declaration', () => {
  for (const [decorator, name] of [[Inject('x'), '@Inject()'], [Optional(), '@Optional()']] as const) {
    assert.throws(() => {
      class Service { method (value: unknown) { return value } }
      decorator(Service.prototype, 'method', 0)
    }, { code: 'FDP_ERR_INVALID_DECLARATION', message: `${name} applies to constructor parameters and instance properties; Service.method() is a method.` })
    assert.throws(() => {
      class Service { static shared: unknown }
      (decorator as PropertyDecorator)(Service, 'shared')
    }, { code: 'FDP_ERR_INVALID_DECLARATION', message: `${name} applies to constructor parameters and instance properties; Service.shared is static.` })
  }
})
