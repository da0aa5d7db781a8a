import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Module, Controller, Get, Injectable, Inject, Scope, REQUEST, forwardRef, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'
import { CatsModule, CatsService } from '../fixtures/forward-ref-modules/cats.module.js'
import { OwnersService } from '../fixtures/forward-ref-modules/owners.module.js'

test('module files importing each other load and register when both sides use forwardRef', async (t) => {
  const app = await build(t, CatsModule)
  const cats = app.container.get(CatsService)
  const owners = app.container.get(OwnersService)
  assert.equal(cats.ownerOf(), 'Jon')
  assert.equal(owners.catOf(), 'Tom')
  assert.equal(cats.owners, owners)
  assert.equal(owners.cats, cats)
})

test('forwardRef in imports: two modules in one file import each other', async (t) => {
  @Injectable() class Left { side () { return 'left' } }
  @Injectable() class Right { side () { return 'right' } }
  @Injectable() class UsesRight { constructor (@Inject(Right) readonly right: Right) {} }
  @Injectable() class UsesLeft { constructor (@Inject(Left) readonly left: Left) {} }
  @Module({ imports: [forwardRef(() => RightModule)], providers: [Left, UsesRight], exports: [Left, UsesRight] })
  class LeftModule {}
  @Module({ imports: [forwardRef(() => LeftModule)], providers: [Right, UsesLeft], exports: [Right, UsesLeft] })
  class RightModule {}
  @Module({ imports: [LeftModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(UsesRight).right.side(), 'right')
  assert.equal(app.container.get(UsesLeft).left.side(), 'left')
})

test('forwardRef lets two singletons inject each other through their constructors, as one instance each', async (t) => {
  const inits: string[] = []
  @Injectable()
  class CommonService implements OnModuleInit {
    constructor (@Inject(forwardRef(() => CatsLocal)) readonly cats: CatsLocal) {}
    label () { return 'common' }
    onModuleInit () { inits.push(`common sees ${this.cats.label()}`) }
  }
  @Injectable()
  class CatsLocal implements OnModuleInit {
    readonly created = Date.now()
    constructor (@Inject(forwardRef(() => CommonService)) readonly common: CommonService) {}
    label () { return 'cats' }
    onModuleInit () { inits.push(`cats sees ${this.common.label()}`) }
  }
  @Controller('cycle')
  class CycleController {
    constructor (@Inject(CatsLocal) private readonly cats: CatsLocal) {}
    @Get() get () { return [this.cats.label(), this.cats.common.label(), this.cats.common.cats.label()] }
  }
  @Module({ controllers: [CycleController], providers: [CommonService, CatsLocal] })
  class AppModule {}

  const app = await build(t, AppModule)
  const common = app.container.get(CommonService)
  const cats = app.container.get(CatsLocal)
  assert.equal(common.cats, cats)
  assert.equal(cats.common, common)
  assert.ok(cats instanceof CatsLocal)
  assert.equal(typeof cats.created, 'number', 'fields set by the constructor are on the shared instance')
  assert.deepEqual((await app.inject('/cycle')).json(), ['cats', 'common', 'cats'])
  assert.deepEqual(inits.sort(), ['cats sees common', 'common sees cats'])
})

test('forwardRef on one side of a provider cycle is enough, and cycles may span modules', async (t) => {
  @Injectable()
  class Orders { constructor (@Inject(forwardRef(() => Users)) readonly users: Users) {} name () { return 'orders' } }
  @Injectable()
  class Users { constructor (@Inject(Orders) readonly orders: Orders) {} name () { return 'users' } }
  @Module({ imports: [forwardRef(() => UsersModule)], providers: [Orders], exports: [Orders] })
  class OrdersModule {}
  @Module({ imports: [OrdersModule], providers: [Users], exports: [Users] })
  class UsersModule {}
  @Module({ imports: [UsersModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Users).orders.users, app.container.get(Users))
  assert.equal(app.container.get(Orders).users.name(), 'users')
})

test('property injection with forwardRef resolves a cycle', async (t) => {
  @Injectable()
  class Left {
    @Inject(forwardRef(() => Right)) readonly right!: Right
    name () { return 'left' }
  }
  @Injectable()
  class Right {
    @Inject(forwardRef(() => Left)) readonly left!: Left
    name () { return 'right' }
  }
  @Module({ providers: [Left, Right] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(Left).right, app.container.get(Right))
  assert.equal(app.container.get(Right).left, app.container.get(Left))
  assert.equal(app.container.get(Left).right.left.name(), 'left')
})

test('a forwardRef cycle that comes back through a useExisting alias gets the aliased class\'s instance', async (t) => {
  @Injectable()
  class Engine { constructor (@Inject(forwardRef(() => Car)) readonly car: Car) {} }
  @Injectable()
  class Car { constructor (@Inject('ENGINE') readonly engine: Engine) {} }
  @Module({ providers: [{ provide: 'ENGINE', useExisting: Engine }, Engine, Car] })
  class AppModule {}

  const app = await build(t, AppModule)
  const engine = app.container.get(Engine)
  assert.ok(engine instanceof Engine)
  assert.equal(app.container.get('ENGINE'), engine)
  assert.equal(app.container.get(Car).engine, engine)
  assert.equal(engine.car, app.container.get(Car))
})

test('a cycle with no forwardRef still fails with its path', async () => {
  @Injectable() class A { constructor (@Inject('B') readonly b: unknown) {} }
  @Injectable() class B { @Inject(A) readonly a!: A }
  @Module({ providers: [A, { provide: 'B', useClass: B }] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_CIRCULAR_DEPENDENCY')
  assert.equal(error.message, 'Circular dependency: A -> "B" (useClass B) -> A in module AppModule. ' +
    'Break the cycle, for example by moving what both need into a third provider, or mark one of its injections with forwardRef(() => Token).')
})

test('a request-scoped or transient provider in a forwardRef cycle fails, naming it', async () => {
  @Injectable({ scope: Scope.REQUEST })
  class PerRequest { constructor (@Inject(forwardRef(() => Holder)) readonly holder: unknown) {} }
  @Injectable()
  class Holder { constructor (@Inject(forwardRef(() => PerRequest)) readonly perRequest: PerRequest) {} }
  @Module({ providers: [PerRequest, Holder] })
  class RequestModule {}
  const error = await registrationError({ module: RequestModule })
  assert.equal(error.code, 'FDP_ERR_CIRCULAR_DEPENDENCY')
  assert.equal(error.message, 'Circular dependency: PerRequest -> Holder -> PerRequest in module RequestModule, through forwardRef(). ' +
    'PerRequest is request-scoped: forwardRef() only resolves cycles between singletons, as in NestJS. Break the cycle, for example by moving what both need into a third provider.')

  @Injectable()
  class NeedsRequest { constructor (@Inject(REQUEST) readonly request: unknown, @Inject(forwardRef(() => Loop)) readonly loop: unknown) {} }
  @Injectable()
  class Loop { constructor (@Inject(NeedsRequest) readonly needs: NeedsRequest) {} }
  @Module({ providers: [NeedsRequest, Loop] })
  class BubbledModule {}
  const bubbled = await registrationError({ module: BubbledModule })
  assert.equal(bubbled.code, 'FDP_ERR_CIRCULAR_DEPENDENCY')
  assert.match(bubbled.message, /NeedsRequest is request-scoped: forwardRef\(\) only resolves cycles between singletons/)

  @Injectable({ scope: Scope.TRANSIENT })
  class Fresh { constructor (@Inject(forwardRef(() => Owner)) readonly owner: unknown) {} }
  @Injectable()
  class Owner { constructor (@Inject(forwardRef(() => Fresh)) readonly fresh: Fresh) {} }
  @Module({ providers: [Owner, Fresh] })
  class TransientModule {}
  const transient = await registrationError({ module: TransientModule })
  assert.equal(transient.code, 'FDP_ERR_CIRCULAR_DEPENDENCY')
  assert.match(transient.message, /Fresh is transient: forwardRef\(\) only resolves cycles between singletons/)
})

test('a factory provider that a forwardRef cycle comes back to fails, naming it', async () => {
  @Injectable()
  class Client { constructor (@Inject(forwardRef(() => 'CONN')) readonly conn: unknown) {} }
  @Module({ providers: [{ provide: 'CONN', useFactory: (client: Client) => ({ client }), inject: [Client] }, Client] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_CIRCULAR_DEPENDENCY')
  assert.equal(error.message, 'Circular dependency: "CONN" -> Client -> "CONN" in module AppModule, through forwardRef(). ' +
    '"CONN" is made by a factory, which cannot be handed out before it has run. Let a class provider come first in the cycle (list it before "CONN" in providers), or break the cycle.')
})

test('a forwardRef() that returns undefined fails, naming where it is', async () => {
  @Injectable() class Later {}
  const holder: { module?: Function, token?: Function } = {}
  @Module({ imports: [forwardRef(() => holder.module as any)] })
  class ImportsModule {}
  const imports = await registrationError({ module: ImportsModule })
  assert.equal(imports.code, 'FDP_ERR_UNDEFINED_FORWARD_REF')
  assert.equal(imports.message, 'entry 0 of ImportsModule\'s imports is a forwardRef() whose function returned undefined. ' +
    'It must return the module class, e.g. forwardRef(() => CatsModule); check the name and that the class is exported from its file.')

  @Injectable()
  class Consumer { constructor (@Inject(forwardRef(() => holder.token as any)) readonly dep: unknown) {} }
  @Module({ providers: [Consumer, Later] })
  class ProvidersModule {}
  const provider = await registrationError({ module: ProvidersModule })
  assert.equal(provider.code, 'FDP_ERR_UNDEFINED_FORWARD_REF')
  assert.equal(provider.message, 'Consumer in module ProvidersModule: the forwardRef() of the constructor parameter at index [0] returned undefined. ' +
    'It must return the token, e.g. forwardRef(() => CatsService); check the name and that the class is exported from its file.')

  @Injectable()
  class PropertyConsumer { @Inject(forwardRef(() => holder.token as any)) readonly dep: unknown }
  @Module({ providers: [PropertyConsumer] })
  class PropertyModule {}
  const property = await registrationError({ module: PropertyModule })
  assert.equal(property.code, 'FDP_ERR_UNDEFINED_FORWARD_REF')
  assert.match(property.message, /^PropertyConsumer in module PropertyModule: the forwardRef\(\) of the property "dep" returned undefined\./)
})

test('forwardRef() takes a function', () => {
  assert.throws(() => forwardRef('CatsModule' as any), {
    code: 'FDP_ERR_INVALID_DECLARATION',
    message: 'forwardRef() takes a function that returns the class, e.g. forwardRef(() => CatsModule), given string "CatsModule".'
  })
})
