import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as nest from '@nestjs/common'
import * as core from '@nestjs/core'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { REQUEST, Reflector, ModuleRef, DiscoveryService, LazyModuleLoader, MetadataScanner, ModulesContainer } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

// NestJS's tokens resolve to the plugin's: the strings 'REQUEST', 'INQUIRER' and 'Reflector', and
// @nestjs/core's REQUEST, INQUIRER, Reflector, ModuleRef, HttpAdapterHost, DiscoveryService,
// MetadataScanner and ModulesContainer.

test('\'REQUEST\' (@nestjs/core\'s REQUEST) injects the Fastify request and makes its consumer request-scoped', async (t) => {
  assert.equal(core.REQUEST, 'REQUEST')
  @nest.Injectable()
  class RequestInfo {
    constructor (@nest.Inject(core.REQUEST) readonly request: FastifyRequest, @nest.Inject(REQUEST) readonly same: FastifyRequest) {}
  }
  @nest.Controller('who')
  class WhoController {
    constructor (@nest.Inject(RequestInfo) private readonly info: RequestInfo) {}
    @nest.Get() who () { return { id: this.info.request.headers['x-id'], same: this.info.request === this.info.same } }
  }
  @nest.Module({ controllers: [WhoController], providers: [RequestInfo] })
  class WhoModule {}
  const app = await build(t, WhoModule)
  assert.deepEqual((await app.inject({ url: '/who', headers: { 'x-id': 'a' } })).json(), { id: 'a', same: true })
  assert.deepEqual((await app.inject({ url: '/who', headers: { 'x-id': 'b' } })).json(), { id: 'b', same: true })
})

test('@nestjs/core\'s Reflector and the string \'Reflector\' inject the application\'s Reflector', async (t) => {
  let seen: unknown[] = []
  @nest.Injectable()
  class UsesReflectors {
    constructor (@nest.Inject(core.Reflector) readonly nest: Reflector, @nest.Inject('Reflector') readonly named: Reflector, @nest.Inject(Reflector) readonly ours: Reflector) {
      seen = [nest, named, ours]
    }
  }
  @nest.Module({ providers: [UsesReflectors] })
  class ReflectorModule {}
  const app = await build(t, ReflectorModule)
  assert.ok(seen[0] instanceof Reflector)
  assert.equal(seen[0], seen[1])
  assert.equal(seen[0], seen[2])
  assert.equal(app.container.get(core.Reflector), seen[0])
  assert.equal(app.container.get('Reflector'), seen[0])
})

test('@nestjs/core\'s HttpAdapterHost gives an adapter over the Fastify app', async (t) => {
  let host: core.HttpAdapterHost | undefined
  @nest.Controller('adapter')
  class AdapterController {
    constructor (@nest.Inject(core.HttpAdapterHost) private readonly adapterHost: core.HttpAdapterHost) { host = adapterHost }
    @nest.Get('info')
    info (@nest.Req() request: FastifyRequest) {
      const adapter = this.adapterHost.httpAdapter
      return { type: adapter.getType(), method: adapter.getRequestMethod(request), url: adapter.getRequestUrl(request), hostname: adapter.getRequestHostname(request) }
    }

    @nest.Get('reply')
    reply (@nest.Res() reply: FastifyReply) {
      const adapter = this.adapterHost.httpAdapter
      adapter.setHeader(reply, 'x-adapter', 'yes')
      adapter.status(reply, 418)
      adapter.reply(reply, { replied: true })
    }

    @nest.Get('status')
    status (@nest.Res() reply: FastifyReply) { this.adapterHost.httpAdapter.reply(reply, 'created', 201) }

    @nest.Get('redirect')
    redirect (@nest.Res() reply: FastifyReply) {
      const adapter = this.adapterHost.httpAdapter as any
      adapter.setHeader(reply, 'x-before', String(adapter.isHeadersSent(reply)))
      adapter.setHeader(reply, 'x-read', String(adapter.getHeader(reply, 'x-before')))
      adapter.redirect(reply, 307, '/adapter/info')
    }
  }
  @nest.Module({ controllers: [AdapterController] })
  class AdapterModule {}
  const app = await build(t, AdapterModule)
  assert.equal(host?.httpAdapter.getInstance(), app)
  assert.equal(host?.httpAdapter.getHttpServer(), app.server)
  assert.equal(app.container.get(core.HttpAdapterHost), host)
  assert.deepEqual((await app.inject('/adapter/info?x=1')).json(), { type: 'fastify', method: 'GET', url: '/adapter/info?x=1', hostname: 'localhost' })
  const replied = await app.inject('/adapter/reply')
  assert.equal(replied.statusCode, 418)
  assert.equal(replied.headers['x-adapter'], 'yes')
  assert.deepEqual(replied.json(), { replied: true })
  const redirected = await app.inject('/adapter/redirect')
  assert.equal(redirected.statusCode, 307)
  assert.equal(redirected.headers.location, '/adapter/info')
  assert.equal(redirected.headers['x-read'], 'false')
  const status = await app.inject('/adapter/status')
  assert.equal(status.statusCode, 201)
  assert.equal(status.body, 'created')
})

test('a class that is only named like a @nestjs/core class is a provider as any other', async (t) => {
  @nest.Injectable()
  class HttpAdapterHost { readonly own = true }
  @nest.Injectable()
  class Consumer { constructor (@nest.Inject(HttpAdapterHost) readonly host: HttpAdapterHost) {} }
  @nest.Module({ providers: [HttpAdapterHost, Consumer] })
  class OwnModule {}
  const app = await build(t, OwnModule)
  assert.equal(app.container.get(Consumer).host.own, true)
})

test('Test.createTestingModule(): NestJS classes compile, and the application\'s HttpAdapterHost is its own', async (t) => {
  const { Test } = await import('../../plugin/testing.js')
  @nest.Controller('host')
  class HostController {
    constructor (@nest.Inject(core.HttpAdapterHost) private readonly adapterHost: core.HttpAdapterHost) {}
    @nest.Get() type () { return this.adapterHost.httpAdapter.getType() }
  }
  @nest.Module({ controllers: [HostController] })
  class HostModule {}
  const moduleRef = await Test.createTestingModule({ imports: [HostModule] }).compile()
  const app = moduleRef.createNestApplication()
  await app.init()
  t.after(() => app.close())
  const fastify = app.getHttpAdapter().getInstance()
  assert.equal((await fastify.inject('/host')).body, 'fastify')
  assert.equal(fastify.container.get(core.HttpAdapterHost).httpAdapter.getInstance(), fastify)
})

test('@nestjs/core\'s ModuleRef injects the module\'s ModuleRef; \'INQUIRER\' (@nestjs/core\'s INQUIRER) the inquirer', async (t) => {
  assert.equal(core.INQUIRER, 'INQUIRER')
  @nest.Injectable({ scope: nest.Scope.TRANSIENT })
  class ContextLogger {
    constructor (@nest.Inject(core.INQUIRER) readonly parent: object) {}
    context () { return this.parent.constructor.name }
  }
  @nest.Injectable() class Feature { name = 'feature' }
  @nest.Injectable()
  class Lookup {
    constructor (@nest.Inject(core.ModuleRef) readonly moduleRef: core.ModuleRef, @nest.Inject(ContextLogger) readonly logger: ContextLogger) {}
  }
  @nest.Module({ providers: [Lookup, Feature, ContextLogger] })
  class LookupModule {}
  const app = await build(t, LookupModule)
  const lookup = app.container.get(Lookup)
  assert.ok(lookup.moduleRef instanceof ModuleRef)
  assert.equal(lookup.moduleRef.get(Feature, { strict: true }), app.container.get(Feature))
  assert.equal(app.container.get(core.ModuleRef), app.container.get(ModuleRef))
  assert.equal(lookup.logger.context(), 'Lookup')
})

test('@nestjs/core\'s LazyModuleLoader is the plugin\'s: it loads a module decorated with @nestjs/common, whose @nestjs/core tokens resolve too', async (t) => {
  @nest.Injectable()
  class Lazy { constructor (@nest.Inject(core.ModuleRef) readonly moduleRef: ModuleRef, @nest.Inject('WORD') readonly word: string) {} }
  @nest.Module({ providers: [Lazy, { provide: 'WORD', useValue: 'late' }] })
  class LazyModule {}
  @nest.Module({ providers: [{ provide: 'LOADER', useFactory: (loader: unknown) => loader, inject: [core.LazyModuleLoader] }] })
  class LoaderModule {}
  const app = await build(t, LoaderModule)
  const loader = app.container.get<core.LazyModuleLoader>('LOADER')
  assert.ok(loader instanceof LazyModuleLoader)
  const moduleRef = await loader.load(() => LazyModule)
  const lazy = moduleRef.get(Lazy)
  assert.equal(lazy.word, 'late')
  assert.equal(lazy.moduleRef, moduleRef, 'the lazily loaded module\'s own ModuleRef')
})

// What @nestjs/core's DiscoveryService.createDecorator() marks, found by the plugin's DiscoveryService.
const CoreFlag = core.DiscoveryService.createDecorator<{ name: string }>()

test('@nestjs/core\'s DiscoveryModule, DiscoveryService, MetadataScanner and ModulesContainer are the plugin\'s', async (t) => {
  @nest.Injectable() @CoreFlag({ name: 'marked' })
  class Marked { @CoreFlag({ name: 'method' }) run () {} }
  @nest.Injectable()
  class Explorer {
    constructor (readonly discovery: core.DiscoveryService, readonly scanner: core.MetadataScanner, @nest.Inject(core.ModulesContainer) readonly modules: core.ModulesContainer) {}
  }
  // Parameter types, as tsc records them (this lane runs without decorator metadata).
  Reflect.defineMetadata('design:paramtypes', [core.DiscoveryService, core.MetadataScanner, core.ModulesContainer], Explorer)
  @nest.Module({ imports: [core.DiscoveryModule], providers: [Explorer, Marked] })
  class ExplorerModule {}
  const app = await build(t, ExplorerModule)
  const explorer = app.container.get(Explorer)
  assert.ok(explorer.discovery instanceof DiscoveryService)
  assert.equal(explorer.discovery, app.container.get(core.DiscoveryService))
  assert.ok(explorer.scanner instanceof MetadataScanner)
  assert.ok(explorer.modules instanceof ModulesContainer)
  // @nestjs/core's DiscoveryModule is a module with nothing of its own: its providers are not built.
  assert.deepEqual([...explorer.modules.values()].map((module) => [module.name, [...module.providers.values()].map((wrapper) => wrapper.name)]), [
    ['ExplorerModule', ['ExplorerModule', 'Explorer', 'Marked']],
    ['DiscoveryModule', ['DiscoveryModule']]
  ])
  const [marked] = explorer.discovery.getProviders({ metadataKey: CoreFlag.KEY })
  assert.equal(marked.instance, app.container.get(Marked))
  assert.deepEqual(explorer.discovery.getMetadataByDecorator(CoreFlag, marked), { name: 'marked' })
  assert.deepEqual(explorer.discovery.getMetadataByDecorator(CoreFlag, marked, 'run'), { name: 'method' })
  assert.deepEqual(explorer.scanner.getAllMethodNames(Marked.prototype), ['run'])
})
