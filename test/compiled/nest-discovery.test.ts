// Runs on tsc output (emitDecoratorMetadata): the same NestJS application built by NestJS itself
// and by the plugin; what @nestjs/core's DiscoveryService, MetadataScanner and ModulesContainer
// answer is compared, for the application's own modules.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Controller, Get, Global, Inject, Injectable, Module, Scope } from '@nestjs/common'
import { DiscoveryModule, DiscoveryService, MetadataScanner, ModulesContainer, NestFactory, REQUEST } from '@nestjs/core'
import { build } from '../helpers/app.js'

const Flag = DiscoveryService.createDecorator<{ level?: number }>()

@Injectable() class Plain { hello () { return 'plain' } }
@Injectable({ scope: Scope.REQUEST })
class PerRequest { constructor (@Inject(REQUEST) readonly request: unknown) {} }
@Injectable() class NeedsRequest { constructor (readonly perRequest: PerRequest) {} }
@Injectable({ scope: Scope.TRANSIENT }) class Transient { made = true }
@Injectable() @Flag({ level: 1 })
class Flagged { @Flag({ level: 2 }) marked () {} }
@Injectable() class FlaggedChild extends Flagged { own () {} }
@Controller('feature') @Flag()
class FeatureController { @Get() get () { return 'ok' } }

@Module({
  controllers: [FeatureController],
  providers: [
    Plain, PerRequest, NeedsRequest, Transient, Flagged, FlaggedChild,
    { provide: 'VALUE', useValue: { v: 1 } },
    { provide: 'FACTORY', useFactory: () => new Flagged(), inject: [Plain] },
    { provide: 'ALIAS', useExisting: Plain },
    { provide: 'CLASS', useClass: Plain }
  ],
  exports: [Plain]
})
class FeatureModule {}

@Global() @Module({ providers: [{ provide: 'GLOBAL', useValue: 'g' }], exports: ['GLOBAL'] })
class SharedModule {}

@Injectable()
class Explorer {
  constructor (readonly discovery: DiscoveryService, readonly scanner: MetadataScanner, readonly modules: ModulesContainer) {}
}

@Module({ imports: [FeatureModule, SharedModule, DiscoveryModule], providers: [Explorer] })
class AppModule {}

// NestJS adds its own providers to every module (ModuleRef, ApplicationConfig) and a module of
// its own; DiscoveryModule's providers are @nestjs/core's. The rest is the application's.
const internal = new Set(['ModuleRef', 'ApplicationConfig', 'MetadataScanner', 'DiscoveryService', 'InternalCoreModule'])
const own = <T extends { name: unknown, host?: { name: string } }>(wrappers: T[]) => wrappers.filter((wrapper) => !internal.has(String(wrapper.name)) && !internal.has(String(wrapper.host?.name)))

// What a wrapper shows, as a plain value to compare.
function describeWrapper (wrapper: any) {
  const instance = wrapper.instance
  return {
    name: typeof wrapper.name === 'symbol' ? wrapper.name.toString() : wrapper.name,
    token: typeof wrapper.token === 'function' ? wrapper.token.name : String(wrapper.token),
    metatype: wrapper.metatype === null ? null : typeof wrapper.metatype,
    isAlias: wrapper.isAlias,
    isTransient: wrapper.isTransient,
    static: wrapper.isDependencyTreeStatic(),
    instance: instance === null || typeof instance !== 'object' ? instance : `${instance.constructor.name}${Object.keys(instance).length === 0 ? ' (no fields)' : ''}`,
    host: wrapper.host.name
  }
}

async function explore (explorer: Explorer) {
  const { discovery, scanner, modules } = explorer
  const flagged = discovery.getProviders({ metadataKey: Flag.KEY })
  return {
    modules: [...modules.values()].filter((module) => !internal.has(module.name)).map((module) => ({
      name: module.name,
      metatype: module.metatype.name,
      distance: module.distance,
      isGlobal: module.isGlobal,
      instance: (module.instance as object).constructor.name,
      imports: [...module.imports].map((imported) => imported.name).filter((name) => !internal.has(name)).sort(),
      exports: [...module.exports].map((token) => typeof token === 'function' ? token.name : String(token)).filter((name) => !internal.has(name)),
      providers: own([...module.providers.values()]).map(describeWrapper),
      controllers: [...module.controllers.values()].map(describeWrapper)
    })),
    providers: own(discovery.getProviders()).map((wrapper) => wrapper.name).sort(),
    included: own(discovery.getProviders({ include: [SharedModule] })).map((wrapper) => wrapper.name),
    controllers: discovery.getControllers().map((wrapper) => wrapper.name),
    flagged: flagged.map((wrapper) => wrapper.name),
    flaggedIgnoringInclude: discovery.getProviders({ metadataKey: Flag.KEY, include: [SharedModule] }).map((wrapper) => wrapper.name),
    flaggedControllers: discovery.getControllers({ metadataKey: Flag.KEY }).map((wrapper) => wrapper.name),
    classMetadata: flagged.map((wrapper) => discovery.getMetadataByDecorator(Flag, wrapper)),
    methodMetadata: discovery.getMetadataByDecorator(Flag, flagged[0], 'marked'),
    controllerMetadata: discovery.getMetadataByDecorator(Flag, discovery.getControllers()[0]),
    methods: scanner.getAllMethodNames(FlaggedChild.prototype),
    scanned: scanner.scanFromPrototype(new FlaggedChild(), FlaggedChild.prototype, (name) => name === 'own' ? undefined : name)
  }
}

test('DiscoveryService, MetadataScanner and ModulesContainer answer as in a NestJS application built from the same modules', async (t) => {
  const nest = await NestFactory.createApplicationContext(AppModule, { logger: false })
  t.after(() => nest.close())
  const expected = await explore(nest.get(Explorer))
  const app = await build(t, AppModule)
  const actual = await explore(app.container.get(Explorer))
  assert.deepEqual(actual, expected)
  // What was compared: a sample, so that an empty answer on both sides cannot pass.
  assert.deepEqual(actual.flagged, ['Flagged', 'FACTORY'])
  assert.deepEqual(actual.modules.map((module) => module.name), ['AppModule', 'FeatureModule', 'SharedModule', 'DiscoveryModule'])
  assert.equal(actual.modules[1].providers.length, 11)
})
