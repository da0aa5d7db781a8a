import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Controller, DiscoveryModule, DiscoveryService, Get, Global, Inject, Injectable, MetadataScanner, Module, ModuleRef, ModulesContainer,
  REQUEST, Scope, type InstanceWrapper, type OnModuleInit
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const Flag = DiscoveryService.createDecorator<{ level?: number }>()

@Injectable() class Plain { hello () { return 'plain' } }
@Injectable({ scope: Scope.REQUEST })
class PerRequest {
  constructor (@Inject(REQUEST) readonly request: unknown) {}
  listen () {}
}
@Injectable()
class NeedsRequest {
  constructor (@Inject(PerRequest) readonly perRequest: PerRequest) {}
}
@Injectable({ scope: Scope.TRANSIENT }) class Transient { made = true }
@Injectable() @Flag({ level: 1 })
class Flagged {
  @Flag({ level: 2 }) marked () {}
}
// Subclasses of a marked class are not marked, as in NestJS.
@Injectable() class FlaggedChild extends Flagged {}

@Controller('feature') @Flag()
class FeatureController { @Get() get () { return 'ok' } }

@Module({
  controllers: [FeatureController],
  providers: [
    Plain, PerRequest, NeedsRequest, Transient, Flagged, FlaggedChild,
    { provide: 'VALUE', useValue: { v: 1 } },
    { provide: 'FACTORY', useFactory: (plain: Plain) => new Flagged(), inject: [Plain] },
    { provide: 'ALIAS', useExisting: Plain },
    { provide: 'CLASS', useClass: Plain }
  ],
  exports: [Plain]
})
class FeatureModule {}

@Global() @Module({ providers: [{ provide: 'GLOBAL', useValue: 'g' }], exports: ['GLOBAL'] })
class SharedModule {}

@Injectable()
class Explorer implements OnModuleInit {
  seen: string[] = []
  constructor (@Inject(DiscoveryService) readonly discovery: DiscoveryService, @Inject(MetadataScanner) readonly scanner: MetadataScanner, @Inject(ModulesContainer) readonly modules: ModulesContainer) {}
  onModuleInit () {
    // Every singleton is built when onModuleInit runs.
    this.seen = this.discovery.getProviders().filter((wrapper) => wrapper.instance === undefined).map((wrapper) => String(wrapper.name))
  }
}

@Module({ imports: [FeatureModule, SharedModule, DiscoveryModule], providers: [Explorer] })
class AppModule {}

const names = (wrappers: InstanceWrapper[]) => wrappers.map((wrapper) => wrapper.name)
const byToken = (wrappers: InstanceWrapper[], token: unknown) => wrappers.find((wrapper) => wrapper.token === token)!

test('DiscoveryService.getProviders(): every module\'s providers, its class first, in the order modules are scanned', async (t) => {
  const app = await build(t, AppModule)
  const { discovery } = app.container.get(Explorer)
  assert.ok(discovery instanceof DiscoveryService)
  assert.deepEqual(names(discovery.getProviders()), [
    'AppModule', 'Explorer',
    'FeatureModule', 'Plain', 'PerRequest', 'NeedsRequest', 'Transient', 'Flagged', 'FlaggedChild', 'VALUE', 'FACTORY', 'ALIAS', 'Plain',
    'SharedModule', 'GLOBAL',
    'DiscoveryModule'
  ])
  assert.deepEqual(app.container.get(Explorer).seen, [], 'every singleton is there by onModuleInit()')
  assert.deepEqual(names(discovery.getProviders({ include: [FeatureModule, SharedModule] })).slice(-3), ['Plain', 'SharedModule', 'GLOBAL'])
  assert.deepEqual(names(discovery.getProviders({ include: [] })), [])
  assert.deepEqual(names(discovery.getControllers()), ['FeatureController'])
  assert.deepEqual(names(discovery.getControllers({ include: [AppModule] })), [])
  assert.equal(app.container.get(DiscoveryService), discovery, 'one per application')
})

test('getProviders({ metadataKey }): the classes createDecorator()\'s decorator marks, a factory\'s by what it made; include is not read then', async (t) => {
  const app = await build(t, AppModule)
  const discovery = app.container.get(DiscoveryService)
  const marked = discovery.getProviders({ metadataKey: Flag.KEY })
  assert.deepEqual(names(marked), ['Flagged', 'FACTORY'])
  assert.deepEqual(names(discovery.getProviders({ metadataKey: Flag.KEY, include: [AppModule] })), ['Flagged', 'FACTORY'])
  assert.deepEqual(names(discovery.getControllers({ metadataKey: Flag.KEY })), ['FeatureController'])
  assert.deepEqual(discovery.getProviders({ metadataKey: 'unknown' }), [])
  assert.deepEqual(discovery.getMetadataByDecorator(Flag, marked[0]), { level: 1 })
  assert.deepEqual(discovery.getMetadataByDecorator(Flag, marked[0], 'marked'), { level: 2 })
  assert.deepEqual(discovery.getMetadataByDecorator(Flag, discovery.getControllers()[0]), {}, 'no argument stores {}')
  assert.equal(discovery.getMetadataByDecorator(Flag, byToken(discovery.getProviders(), Plain)), undefined)
  assert.equal(typeof Flag.KEY, 'string')
  assert.notEqual(DiscoveryService.createDecorator().KEY, Flag.KEY)
})

test('an InstanceWrapper: name, token, metatype, inject, instance, alias, scope, host and whether its tree is static', async (t) => {
  const app = await build(t, AppModule)
  const providers = app.container.get(DiscoveryService).getProviders({ include: [FeatureModule] })
  const plain = byToken(providers, Plain)
  assert.equal(plain.instance, app.container.get(Plain))
  assert.equal(plain.metatype, Plain)
  assert.equal(plain.inject, undefined)
  assert.equal(plain.isDependencyTreeStatic(), true)
  assert.equal(plain.scope, 0)
  assert.equal(plain.isAlias, false)
  assert.equal(plain.host.metatype, FeatureModule)
  assert.equal(plain.host.getProviderByKey(Plain), plain)

  // Built per request: an object of its class, never constructed; the tree above it too.
  const perRequest = byToken(providers, PerRequest)
  assert.equal(perRequest.isDependencyTreeStatic(), false)
  assert.equal(perRequest.scope, 2)
  assert.ok(perRequest.instance instanceof PerRequest)
  assert.equal(Object.hasOwn(perRequest.instance, 'request'), false)
  assert.equal(perRequest.instance, perRequest.instance)
  assert.equal(byToken(providers, NeedsRequest).isDependencyTreeStatic(), false)
  assert.equal(byToken(providers, NeedsRequest).scope, 0)

  const transient = byToken(providers, Transient)
  assert.equal(transient.isDependencyTreeStatic(), true)
  assert.equal(transient.isTransient, true)
  assert.equal(transient.scope, 1)
  assert.ok(transient.instance instanceof Transient)
  assert.equal(transient.instance.made, undefined, 'not constructed')

  const value = byToken(providers, 'VALUE')
  assert.deepEqual([value.name, value.metatype, value.instance], ['VALUE', null, { v: 1 }])
  const factory = byToken(providers, 'FACTORY')
  assert.equal(typeof factory.metatype, 'function')
  assert.deepEqual(factory.inject, [Plain])
  assert.ok(factory.instance instanceof Flagged)
  const alias = byToken(providers, 'ALIAS')
  assert.deepEqual([alias.isAlias, alias.instance, alias.inject], [true, app.container.get(Plain), [Plain]])
  assert.equal(typeof alias.metatype, 'function')
  const useClass = byToken(providers, 'CLASS')
  assert.deepEqual([useClass.name, useClass.metatype, useClass.token], ['Plain', Plain, 'CLASS'])
})

@Injectable({ scope: Scope.REQUEST })
class Failing {
  constructor () { throw new Error('cannot be built') }
}
@Module({ providers: [Failing, PerRequest] })
class FailingModule {}

test('InstanceWrapper.getInstanceByContextId(): built once per context, REQUEST what was registered for it; a singleton\'s for any context; a failed build settles donePromise with its error', async (t) => {
  const app = await build(t, AppModule)
  const providers = app.container.get(DiscoveryService).getProviders({ include: [FeatureModule] })
  const perRequest = byToken(providers, PerRequest)
  // A context id as @nestjs/core's ContextIdFactory makes one, with a payload registered for it.
  const contextId = { id: 1 }
  const payload = { event: 'x' }
  app.container.get(ModuleRef).registerRequestByContextId(payload, contextId)
  const host = perRequest.getInstanceByContextId(contextId)
  assert.deepEqual([host.isResolved, host.isPending, host.instance], [false, true, undefined])
  assert.equal(perRequest.getInstanceByContextId(contextId), host, 'one per context')
  assert.equal(await host.donePromise, undefined)
  assert.deepEqual([host.isResolved, host.isPending], [true, false])
  assert.ok(host.instance instanceof PerRequest)
  assert.equal(host.instance.request, payload)
  const other = perRequest.getInstanceByContextId({ id: 2 })
  await other.donePromise
  assert.notEqual(other.instance, host.instance)
  assert.equal(other.instance.request, undefined, 'nothing registered for that context')
  const plain = byToken(providers, Plain).getInstanceByContextId(contextId)
  assert.deepEqual([plain.instance, plain.isResolved, plain.isPending, await plain.donePromise], [app.container.get(Plain), true, false, undefined])

  const failing = await build(t, FailingModule)
  const wrapper = byToken(failing.container.get(DiscoveryService).getProviders(), Failing)
  const failed = wrapper.getInstanceByContextId({ id: 3 })
  assert.match(String(await failed.donePromise), /cannot be built/)
  assert.deepEqual([failed.isResolved, failed.isPending, failed.instance], [false, false, undefined])
})

test('ModulesContainer: each module as NestJS\'s Module shows it, read only', async (t) => {
  const app = await build(t, AppModule)
  const modules = app.container.get(ModulesContainer)
  assert.ok(modules instanceof Map)
  assert.equal(app.container.get(Explorer).modules, modules)
  assert.deepEqual([...modules.keys()], ['AppModule', 'FeatureModule', 'SharedModule', 'DiscoveryModule'])
  const root = modules.get('AppModule')!
  const feature = modules.getById('FeatureModule')!
  assert.deepEqual([root.name, root.token, root.id, root.metatype, root.distance, root.isGlobal], ['AppModule', 'AppModule', 'AppModule', AppModule, 1, false])
  assert.ok(root.instance instanceof AppModule)
  assert.deepEqual([...root.imports].map((module) => module.name), ['FeatureModule', 'SharedModule', 'DiscoveryModule'])
  assert.deepEqual([...feature.exports], [Plain])
  assert.equal(feature.distance, 2)
  assert.equal(modules.get('SharedModule')!.isGlobal, true)
  assert.equal(modules.get('SharedModule')!.distance, Number.MAX_VALUE)
  assert.deepEqual([...feature.imports].map((module) => module.name), ['SharedModule'], 'a global module is imported by every other, as in NestJS')
  assert.deepEqual([...feature.controllers.keys()], [FeatureController])
  assert.ok(feature.controllers.get(FeatureController)!.instance instanceof FeatureController)
  assert.equal(feature.controllers.get(FeatureController)!.host, feature)
  assert.throws(() => modules.set('x', feature), /read only/)
  assert.throws(() => modules.delete('AppModule'), /read only/)
  assert.throws(() => modules.clear(), /read only/)
  assert.equal(modules.size, 4)
})

test('a class imported as several dynamic modules is several modules, each with a key of its own', async (t) => {
  @Module({})
  class Store {
    static forFeature (name: string) { return { module: Store, providers: [{ provide: name, useValue: name }], exports: [name] } }
  }
  @Module({ imports: [Store.forFeature('cats'), Store.forFeature('dogs')] })
  class Root {}
  const app = await build(t, Root)
  const modules = app.container.get(ModulesContainer)
  assert.deepEqual([...modules.keys()], ['Root', 'Store', 'Store#2'])
  const discovery = app.container.get(DiscoveryService)
  assert.deepEqual(names(discovery.getProviders({ include: [Store] })), ['Store', 'cats', 'Store', 'dogs'])
})

test('MetadataScanner: the method names of a prototype and its bases, once each, no constructor nor accessors', async (t) => {
  class Base {
    shared () {}
    base () {}
    get value () { return 1 }
  }
  class Child extends Base {
    field = 1
    override shared () {}
    own () {}
    override get value () { return 2 }
    set value (_: number) {}
  }
  const app = await build(t, AppModule)
  const scanner = app.container.get(MetadataScanner)
  assert.equal(app.container.get(Explorer).scanner, scanner)
  assert.deepEqual(scanner.getAllMethodNames(Child.prototype), ['shared', 'own', 'base'])
  assert.equal(scanner.getAllMethodNames(Child.prototype), scanner.getAllMethodNames(Child.prototype), 'kept per prototype')
  assert.deepEqual(scanner.getAllMethodNames(null), [])
  assert.deepEqual(scanner.scanFromPrototype(new Child(), Child.prototype, (name) => name === 'own' ? undefined : name.toUpperCase()), ['SHARED', 'BASE'])
  assert.deepEqual(scanner.scanFromPrototype(new Child(), undefined, (name) => name), [])
})

test('DiscoveryService, MetadataScanner and ModulesContainer are given in any module, by ModuleRef too, without DiscoveryModule', async (t) => {
  @Injectable()
  class Finder {
    constructor (@Inject(ModuleRef) readonly moduleRef: ModuleRef) {}
  }
  @Module({ providers: [Finder, Plain] })
  class Alone {}
  const app = await build(t, Alone)
  const { moduleRef } = app.container.get(Finder)
  assert.equal(moduleRef.get(DiscoveryService), app.container.get(DiscoveryService))
  assert.equal(moduleRef.get(ModulesContainer, { strict: true }), app.container.get(ModulesContainer))
  assert.ok(moduleRef.get(MetadataScanner) instanceof MetadataScanner)
  assert.deepEqual(names(app.container.get(DiscoveryService).getProviders()), ['Alone', 'Finder', 'Plain'])
})

test('a decorator of createDecorator() is refused when compiled as a TC39 decorator', () => {
  const decorator = Flag() as unknown as (value: unknown, context: unknown) => void
  assert.throws(() => decorator(class {}, { kind: 'class', name: 'Tc39' }), { code: 'FDP_ERR_INVALID_DECLARATION' })
})
