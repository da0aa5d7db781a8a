import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Injectable, Inject, Catch, UseGuards, UseFilters, UseInterceptors, UsePipes } from '../../plugin/index.js'
import { registrationError } from '../helpers/registration.js'

async function expectError (module: Function, code: string, ...patterns: Array<RegExp | string>): Promise<void> {
  const error = await registrationError({ module })
  assert.equal(error.code, code, error.message)
  for (const pattern of patterns) {
    if (typeof pattern === 'string') assert.ok(error.message.includes(pattern), `${error.message}\n  should include: ${pattern}`)
    else assert.match(error.message, pattern)
  }
}

test('a non-module in imports fails, naming the module, the entry and the fix', async () => {
  @Injectable() class Service {}
  class Plain {}
  @Module({ imports: [undefined as any] })
  class WithUndefined {}
  @Module({ imports: [Service] })
  class WithInjectable {}
  @Module({ imports: [Plain] })
  class WithPlain {}
  @Module({ imports: [{ providers: [Plain] } as any] })
  class WithObject {}

  await expectError(WithUndefined, 'FDP_ERR_NOT_A_MODULE', 'entry 0 of WithUndefined\'s imports is undefined', 'circular import')
  await expectError(WithInjectable, 'FDP_ERR_NOT_A_MODULE', 'entry 0 of WithInjectable\'s imports is class Service, which is not a module',
    'It is an @Injectable() class: list it in providers, not in imports.')
  // A class with no decorator at all is an empty module, as in NestJS (see the dynamic-module tests).
  const app = Fastify()
  await app.register(decoratorPlugin, { module: WithPlain })
  await app.ready()
  await app.close()
  await expectError(WithObject, 'FDP_ERR_NOT_A_MODULE', 'entry 0 of WithObject\'s imports is an object with keys [providers], which is not a module')
})

test('a non-module deep in the graph is found too', async () => {
  @Injectable() class Stray {}
  @Module({ imports: [Stray] })
  class Inner {}
  @Module({ imports: [Inner] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_NOT_A_MODULE', 'entry 0 of Inner\'s imports is class Stray')
})

test('a non-provider in exports fails, naming the module, the entry and the fix', async () => {
  @Injectable() class Elsewhere {}
  @Module({})
  class NotImported {}
  @Module({ exports: [Elsewhere] })
  class ExportsStranger {}
  @Module({ exports: [NotImported] })
  class ExportsModule {}
  @Module({ exports: ['token'] })
  class ExportsString {}

  await expectError(ExportsStranger, 'FDP_ERR_INVALID_EXPORT', 'ExportsStranger exports Elsewhere (exports[0]), which is not one of its providers nor an imported module',
    'Add it to ExportsStranger\'s providers, or export the module that provides it.')
  await expectError(ExportsModule, 'FDP_ERR_INVALID_EXPORT', 'ExportsModule exports the module NotImported without importing it (exports[0])',
    'Add it to ExportsModule\'s imports')
  await expectError(ExportsString, 'FDP_ERR_INVALID_EXPORT', 'ExportsString exports "token" (exports[0])')
})

test('invalid provider shapes fail with what was given and what is expected', async () => {
  @Module({})
  class SomeModule {}
  class Dep {}
  const cases: Array<[unknown, string]> = [
    [null, 'AppModule\'s providers[0] is null; a provider is a class or { provide, useClass | useValue | useFactory | useExisting }'],
    ['str', 'AppModule\'s providers[0] is string "str"'],
    [{ useValue: 1 }, 'AppModule\'s providers[0] is an object with keys [useValue]'],
    [{ provide: 'x' }, 'AppModule\'s providers[0] ("x") must have exactly one of useClass, useValue, useFactory, useExisting; it has none'],
    [{ provide: 'x', useValue: 1, useClass: Dep }, '("x") must have exactly one of useClass, useValue, useFactory, useExisting; it has useClass, useValue'],
    [{ provide: 'x', useClass: 'Dep' }, '("x"): useClass must be a class, given string "Dep"'],
    [{ provide: 'x', useFactory: 1 }, '("x"): useFactory must be a function, given number 1'],
    [{ provide: 'x', useFactory: () => 1, inject: 'Dep' }, '("x"): inject must be an array of tokens'],
    [{ provide: 'x', useFactory: () => 1, inject: [Dep, undefined] }, '("x"): inject[1] is undefined; an entry is a token (class, string or symbol) or { token, optional }'],
    [{ provide: 1, useValue: 1 }, 'AppModule\'s providers[0] has provide: number 1; a token is a class, a string or a symbol'],
    [SomeModule, 'AppModule\'s providers[0] is the module SomeModule; modules belong in imports, not providers'],
    [() => 1, 'AppModule\'s providers[0] is a function that is not a class'],
    [{ provide: 'x', useClass: Dep, scope: 'SINGLETON' }, 'AppModule\'s providers[0]: scope must be DEFAULT, REQUEST or TRANSIENT, given string "SINGLETON"']
  ]
  for (const [provider, message] of cases) {
    @Module({ providers: [provider as any] })
    class AppModule {}
    await expectError(AppModule, 'FDP_ERR_INVALID_PROVIDER', message)
  }
})

test('a non-controller in controllers fails', async () => {
  @Injectable() class NotController {}
  @Module({ controllers: [NotController] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_INVALID_DECLARATION', 'AppModule\'s controllers[0] is class NotController, which is not decorated with @Controller()')
})

test('an unknown dependency names token, index, class and module, and says where to add it', async () => {
  @Injectable() class Missing {}
  @Injectable() class Service { constructor (@Inject('db') readonly db: unknown, @Inject(Missing) readonly missing: Missing) {} }
  @Module({ providers: [Service, { provide: 'db', useValue: 1 }] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_UNKNOWN_DEPENDENCY', 'Cannot resolve Missing at index [1] of Service in module AppModule.',
    'Add Missing to AppModule\'s providers, or import a module that exports it.')

  @Controller('c')
  class UsesSecret {
    constructor (@Inject('secret') readonly secret: string) {}
    @Get() get () { return 1 }
  }
  @Module({ providers: [{ provide: 'secret', useValue: 's' }] })
  class SecretModule {}
  @Module({ imports: [SecretModule], controllers: [UsesSecret] })
  class Feature {}
  await expectError(Feature, 'FDP_ERR_UNKNOWN_DEPENDENCY', 'Cannot resolve "secret" at index [0] of UsesSecret in module Feature.',
    'SecretModule provides it but does not export it')
})

test('a cycle prints its path', async () => {
  @Injectable() class A { constructor (@Inject('B') readonly b: unknown) {} }
  @Injectable() class B { constructor (@Inject('C') readonly c: unknown) {} }
  @Injectable() class C { constructor (@Inject(A) readonly a: A) {} }
  @Module({ providers: [A, { provide: 'B', useClass: B }, { provide: 'C', useFactory: (a: A) => a, inject: [A] }] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_CIRCULAR_DEPENDENCY', 'A -> "B" (useClass B) -> "C" -> A', 'in module AppModule')
  void C

  @Injectable() class Self { constructor (@Inject('self') readonly self: unknown) {} }
  @Module({ providers: [{ provide: 'self', useExisting: 'self' }, Self] })
  class SelfModule {}
  await expectError(SelfModule, 'FDP_ERR_CIRCULAR_DEPENDENCY', '"self" -> "self"')
})

test('a cycle across modules names each module', async () => {
  @Injectable() class Left { constructor (@Inject('right') readonly right: unknown) {} }
  const leftImports: Function[] = []
  @Module({ imports: leftImports as any, providers: [Left], exports: [Left] })
  class LeftModule {}
  @Module({ imports: [LeftModule], providers: [{ provide: 'right', useFactory: (l: Left) => l, inject: [Left] }], exports: ['right'] })
  class RightModule {}
  leftImports.push(RightModule) // the two modules import each other
  @Module({ imports: [RightModule] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_CIRCULAR_DEPENDENCY', '"right" (RightModule) -> Left (LeftModule) -> "right" (RightModule)')
})

test('a constructor parameter with neither type metadata nor @Inject says how to fix it', async () => {
  @Injectable() class Dep {}
  @Injectable() class NoToken { constructor (readonly first: Dep, readonly second: Dep) {} }
  @Module({ providers: [Dep, NoToken] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_MISSING_METADATA',
    'NoToken in module AppModule has a constructor parameter at index [0] with no @Inject() and no type metadata',
    'tsx and esbuild emit no decorator metadata', 'constructor(@Inject(SomeService) private readonly some: SomeService)')

  @Controller('x')
  class PartlyNamed {
    constructor (@Inject(Dep) readonly first: Dep, readonly second: Dep) {}
    @Get() get () { return 1 }
  }
  @Module({ controllers: [PartlyNamed], providers: [Dep] })
  class ControllerModule {}
  await expectError(ControllerModule, 'FDP_ERR_MISSING_METADATA', 'PartlyNamed in module ControllerModule has a constructor parameter at index [1]')
})

test('a subclass without its own constructor needs the base class\'s tokens', async () => {
  @Injectable() class Dep {}
  class Base { constructor (readonly dep: Dep) {} }
  @Injectable() class Derived extends Base {}
  @Module({ providers: [Dep, Derived] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_MISSING_METADATA', 'Derived in module AppModule has a constructor parameter at index [0]',
    'but Base, whose constructor it inherits, has no decorator', 'Add @Injectable() to Base')
})

test('a provider with no decorator at all is told to add @Injectable()', async () => {
  @Injectable() class Dep {}
  class Plain { constructor (readonly dep: Dep) {} }
  @Module({ providers: [Dep, Plain] })
  class AppModule {}
  await expectError(AppModule, 'FDP_ERR_MISSING_METADATA', 'Plain in module AppModule has a constructor parameter at index [0], but Plain has no decorator',
    'Add @Injectable() to Plain', 'under tsx or esbuild also name each token with @Inject(token)')
})

test('each kind of class missing its parameter types gets the message that fits it', async () => {
  @Injectable() class CatsService {}
  // Decorated, so only @Inject() is missing (tsx and esbuild record no types): a controller, a
  // provider, a guard, an interceptor, a pipe, a filter and a module class.
  @Controller('cats')
  class CatsController {
    constructor (readonly cats: CatsService) {}
    @Get() list () { return [] }
  }
  @Module({ controllers: [CatsController], providers: [CatsService] })
  class ControllerModule {}
  await expectError(ControllerModule, 'FDP_ERR_MISSING_METADATA',
    'CatsController in module ControllerModule has a constructor parameter at index [0] with no @Inject() and no type metadata',
    'constructor(@Inject(SomeService) private readonly some: SomeService)')

  @Injectable() class DecoratedGuard { constructor (readonly cats: CatsService) {} canActivate () { return true } }
  @Injectable() class DecoratedInterceptor { constructor (readonly cats: CatsService) {} intercept () { return undefined } }
  @Injectable() class DecoratedPipe { constructor (readonly cats: CatsService) {} transform (value: unknown) { return value } }
  @Catch() class DecoratedFilter { constructor (readonly cats: CatsService) {} catch () {} }
  for (const [name, decorate] of [
    ['DecoratedGuard', UseGuards(DecoratedGuard)],
    ['DecoratedInterceptor', UseInterceptors(DecoratedInterceptor)],
    ['DecoratedPipe', UsePipes(DecoratedPipe)],
    ['DecoratedFilter', UseFilters(DecoratedFilter)]
  ] as const) {
    @Controller('dogs')
    class DogsController { @Get() list () { return [] } }
    decorate(DogsController)
    @Module({ controllers: [DogsController], providers: [CatsService] })
    class EnhancedModule {}
    await expectError(EnhancedModule, 'FDP_ERR_MISSING_METADATA', `${name} in module EnhancedModule has a constructor parameter at index [0] with no @Inject() and no type metadata`)
  }

  @Module({ providers: [CatsService] })
  class InjectingModule { constructor (readonly cats: CatsService) {} }
  await expectError(InjectingModule, 'FDP_ERR_MISSING_METADATA', 'InjectingModule in module InjectingModule has a constructor parameter at index [0] with no @Inject() and no type metadata')

  // Undecorated: the decorator is what is missing, whatever the compiler.
  class PlainGuard { constructor (readonly cats: CatsService) {} canActivate () { return true } }
  @Controller('birds') @UseGuards(PlainGuard)
  class BirdsController { @Get() list () { return [] } }
  @Module({ controllers: [BirdsController], providers: [CatsService] })
  class GuardedModule {}
  await expectError(GuardedModule, 'FDP_ERR_MISSING_METADATA', 'PlainGuard in module GuardedModule has a constructor parameter at index [0], but PlainGuard has no decorator',
    'Add @Injectable() to PlainGuard')
})

test('a failed registration leaves nothing behind: no route, no decoration, no hook', async () => {
  @Controller('ok')
  class Ok { @Get() get () { return 'ok' } }
  @Injectable() class Broken { constructor (@Inject('nope') readonly nope: unknown) {} }
  @Module({ controllers: [Ok], providers: [Broken] })
  class AppModule {}

  const app = Fastify()
  app.get('/plain', async () => 'plain')
  const before = app.printRoutes()
  let caught: any
  app.register(decoratorPlugin, { module: AppModule }).after((error) => { caught = error })
  await app.ready()
  assert.equal(caught?.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.equal(app.hasDecorator('container'), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/ok' }), false)
  assert.equal(app.printRoutes(), before)
  assert.equal((await app.inject('/ok')).statusCode, 404)
  assert.equal((await app.inject('/plain')).body, 'plain')
  await app.close()
})

test('a provider that fails to build leaves no container decoration on the parent', async () => {
  @Module({ providers: [{ provide: 'boom', useFactory: () => { throw new Error('no database') } }] })
  class AppModule {}
  const app = Fastify()
  let caught: any
  app.register(decoratorPlugin, { module: AppModule }).after((error) => { caught = error })
  await app.ready()
  assert.equal(caught?.code, 'FDP_ERR_PROVIDER_FAILED')
  assert.equal(app.hasDecorator('container'), false)
  await app.close()
})

test('module files importing each other: an ES module cycle is a ReferenceError while the files load, before the plugin runs', () => {
  const main = fileURLToPath(new URL('../fixtures/circular-modules/main.ts', import.meta.url))
  const result = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main], { encoding: 'utf8' })
  assert.notEqual(result.status, 0)
  assert.match(result.stderr, /ReferenceError: Cannot access 'CatsModule' before initialization/)
  assert.match(result.stderr, /owners\.module\.ts:4/)
  assert.equal(result.stdout, '', 'the app never reached the plugin')
})
