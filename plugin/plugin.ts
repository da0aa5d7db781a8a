import type { FastifyInstance } from 'fastify'
import { fp } from './util/peers.js'
import type { DecoratorPluginOptions } from '../types/index.js'
import { scanModules, initOrder, notAModuleHint, type ModuleNode } from './di/scanner.js'
import { controllerUse, scanControllers, type ControllerScan } from './routing/controller-scan.js'
import { Container, type Binding } from './di/container.js'
import { EnhancerRefs, type EnhancerRefLists } from './di/enhancer-ref.js'
import { globalEnhancers } from './di/app-enhancers.js'
import { optionEnhancers } from './decorators/enhancers.js'
import { createVersioning, type Versioning } from './versioning/versioning.js'
import { planController, type ControllerPlan, type RouterContext } from './routing/planner.js'
import { checkAppRoutes, checkRoutes } from './routing/route-checks.js'
import { named, registerControllers, type Contexts } from './routing/router.js'
import { createErrorHandler, lastResortErrorHandler } from './pipeline/exception-handler.js'
import { appContainer } from './di/app-container.js'
import { ApplicationConfig } from './di/application-config.js'
import { lifecycleOrder, runStart, runStop } from './di/lifecycle.js'
import { signalShutdown, shutdownSignalsOf } from './extras/shutdown-signals.js'
import { checkView, registerView } from './extras/view.js'
import { isModule } from './decorators/module.js'
import { checkTrailingSlash } from './decorators/controller.js'
import { moduleRoutes, planModulePlugins, registerModulePlugins } from './routing/module-plugins.js'
import { addProviderHooks } from './routing/hooks.js'
import { ERR_ALREADY_REGISTERED, ERR_INVALID_OPTIONS } from './util/errors.js'
import { describe } from './util/describe.js'
import { kApplication } from './util/symbols.js'
import { internalOptions, type InternalOptions } from './di/internal-options.js'
import { applyMiddleware } from './extras/middleware.js'
import { globalPrefix } from './routing/global-prefix.js'
import { modulePaths } from './routing/module-paths.js'
import { addRequestContext, useAppLogger } from './extras/logger.js'
import { DtoSchemas } from './validation/dto-registry.js'
import { documentedModels } from './routing/nest-swagger.js'
import { hasMethod } from './util/has-method.js'
import { readNestMetadata } from './nest/interop.js'
import { loadRxjs } from './pipeline/call-handler.js'
import { hasGateways } from './websockets/decorators.js'
import { keepTickMaps } from './util/tick-maps.js'

// At import, before the app's startup: by the time a plugin is registered, the startup of the
// plugins before it may already have put process.nextTick() on V8's slow path (util/tick-maps.ts).
keepTickMaps()

const enhancerLists = ['globalGuards', 'globalPipes', 'globalInterceptors', 'globalFilters'] as const
const enhancerMethods = { globalGuards: 'canActivate', globalPipes: 'transform', globalInterceptors: 'intercept', globalFilters: 'catch' }

function validateOptions (options: DecoratorPluginOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin needs options { module: AppModule }, given ${describe(options)}.`)
  }
  if (!isModule(options.module)) {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "module" must be a class decorated with @Module() (the root module), given ${describe(options.module)}. ${notAModuleHint(options.module, 'list it in the root module\'s providers')}`)
  }
  globalPrefix(options.prefix, options.prefixExclude)
  checkTrailingSlash(options.prefixTrailingSlash, (message) => new ERR_INVALID_OPTIONS(message), 'decoratorPlugin option')
  for (const list of enhancerLists) {
    const entries = options[list]
    if (entries === undefined) continue
    if (!Array.isArray(entries)) throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "${list}" must be an array, given ${describe(entries)}.`)
    entries.forEach((entry, i) => {
      const method = enhancerMethods[list]
      if (!hasMethod(entry, method)) {
        throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "${list}"[${i}] must be a class or an instance with ${method}(), given ${describe(entry)}.`)
      }
    })
  }
  if (options.overrides !== undefined && !Array.isArray(options.overrides)) {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "overrides" must be an array of providers, given ${describe(options.overrides)}.`)
  }
  if (options.rawBody !== undefined && typeof options.rawBody !== 'boolean') {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "rawBody" must be true or false, given ${describe(options.rawBody)}.`)
  }
  shutdownSignalsOf(options.shutdownSignals)
  const adapter = options.websocketAdapter
  if (adapter !== undefined && !(['create', 'bindClientConnect', 'bindMessageHandlers', 'close'] as const).every((method) => hasMethod(adapter, method))) {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "websocketAdapter" must be a WebSocket adapter (create, bindClientConnect, bindMessageHandlers, close), such as new WsAdapter(app.server) or new IoAdapter(app.server), given ${describe(adapter)}.`)
  }
}

// One context holds one application: its `container` decoration (inherited by child contexts) says so.
function checkNotRegistered (app: FastifyInstance): void {
  if (!app.hasDecorator('container') || (app.container as unknown as Record<symbol, unknown>)?.[kApplication] !== true) return
  throw new ERR_ALREADY_REGISTERED('decoratorPlugin is already registered on this Fastify instance or on a parent context: one context holds one application, ' +
    'and a second would clash with the first one\'s container decoration and routes. To add modules to that application, import them into its root module. ' +
    'To run separate applications, register each of them, the first one included, in a context of its own: ' +
    'app.register(async (child) => { await child.register(decoratorPlugin, { module: AdminModule }) }).')
}

/**
 * What planning reads. Built here rather than inside decoratorPlugin: closures made there would
 * keep its whole scope, every scan and plan, alive for as long as the app runs.
 */
function routerContext (app: FastifyInstance, options: DecoratorPluginOptions, container: Container, refs: EnhancerRefs, versioning: Versioning, globals: EnhancerRefLists, controllers: ControllerScan[]): RouterContext {
  const prefix = globalPrefix(options.prefix, options.prefixExclude)
  return {
    container,
    refs,
    versioning,
    prefix: prefix.path,
    excludes: prefix.excludes,
    modulePaths: modulePaths(container.graph),
    prefixTrailingSlash: options.prefixTrailingSlash ?? 'no-slash',
    ignoreTrailingSlash: app.initialConfig.routerOptions?.ignoreTrailingSlash === true || app.initialConfig.ignoreTrailingSlash === true,
    uriVersioning: options.versioning?.type === 'uri',
    allMethods: app.supportedMethods.filter((method) => method !== 'CONNECT'),
    hasConstraintStrategy: (name) => app.hasConstraintStrategy(name),
    dto: new DtoSchemas(app.log, (id) => app.getSchema(id) !== undefined),
    rawBody: options.rawBody === true,
    openapi: documentedModels(controllers, app.hasDecorator('swagger')),
    globals
  }
}

/** The container keeps this lookup for later instances: made here, it holds the contexts and nothing else. */
function contextOf (contexts: Contexts) {
  return (binding: Binding) => contexts.get(binding) ?? contexts.get(binding.module)
}

const stopHooks = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const

/**
 * The hooks that outlive registration: NestJS's lifecycle and the shutdown signals. In a function
 * of its own, for the same reason: they hold the targets, not what registration is done with.
 */
async function startLifecycle (app: FastifyInstance, root: FastifyInstance, container: Container, targets: ReturnType<typeof lifecycleOrder>, options: DecoratorPluginOptions, internal: InternalOptions | undefined): Promise<void> {
  if (internal?.manualLifecycle) {
    internal.manualLifecycle({
      container,
      init: async () => { await runStart(targets, 'onModuleInit'); await runStart(targets, 'onApplicationBootstrap') },
      destroy: () => runStop(targets, [...stopHooks])
    })
    return
  }
  const shutdown = signalShutdown(app, shutdownSignalsOf(options.shutdownSignals))
  // Fastify closes the server first, so requests in flight have completed before these run.
  root.addHook('onClose', async () => {
    try {
      await runStop(targets, [...stopHooks], shutdown.signal)
    } finally {
      shutdown.stop()
    }
  })
  await runStart(targets, 'onModuleInit')
  // Once every plugin of the app has loaded, before it listens: NestJS's bootstrap phase.
  root.addHook('onReady', async () => { await runStart(targets, 'onApplicationBootstrap') })
  shutdown.listen()
}

async function decoratorPlugin (app: FastifyInstance, options: DecoratorPluginOptions): Promise<void> {
  checkNotRegistered(app)
  // Classes decorated with @nestjs/common (when installed) get the plugin's metadata first: its
  // modules, providers and controllers now, plugin controllers' NestJS methods as they are scanned.
  const nest = await readNestMetadata(options, app)
  validateOptions(options)
  const internal = internalOptions(options)
  const versioning = createVersioning(options.versioning)
  // Everything is scanned, bound, planned and checked before Fastify is touched: a bad declaration
  // registers nothing. Scan: every module, controller and handler declaration.
  const graph = await scanModules(options.module, internal?.replaceModules)
  const modules = initOrder(graph)
  const controllers = modules.flatMap((module) => scanControllers(module, nest))
  const foreign = await nest?.finish(controllers)
  const globals = optionEnhancers(options)
  // Bind: every provider, controller, enhancer and module class, then scopes and cycles.
  const container = new Container(graph, options.overrides, internal?.seed, foreign, internal?.mocker)
  container.applicationConfig = new ApplicationConfig(options)
  container.bindApplication([...globals.guards, ...globals.pipes, ...globals.interceptors, ...globals.filters], controllers.map(controllerUse), modules)
  // Gateways (loaded only when a module provides one) bind their enhancer classes with the routes'.
  const gateways = hasGateways(modules) ? new (await import('./websockets/runtime.js')).Gateways(modules, container) : undefined
  container.finalize()
  // Plan: each route with its Fastify options; each module's plugins.
  const refs = new EnhancerRefs(container)
  const ctx = routerContext(app, options, container, refs, versioning, globalEnhancers(refs, container, graph.modules, globals), controllers)
  gateways?.refs(refs, ctx.globals)
  const modulePlugins = new Map(modules.map((module) => [module, planModulePlugins(module)]))
  const plans = controllers.map((scan) => planController(scan, ctx))
  // Each module's controller plans, in one pass over them all.
  const plansOf = new Map<ModuleNode, ControllerPlan[]>(modules.map((module) => [module, []]))
  for (const plan of plans) plansOf.get(plan.module)!.push(plan)
  const noAutoHead = checkRoutes(plans)
  checkAppRoutes(app, plans)
  versioning.check(app)
  gateways?.check(container)
  // An application context (testing's compile()) builds providers and controllers but serves no route.
  const serving = internal?.contextOnly !== true
  const routes = plans.flatMap((plan) => plan.routes)
  if (serving) checkView(app, options.view, routes.filter((route) => route.render !== undefined))
  if (routes.some((route) => route.intercepted)) await loadRxjs()

  // Register: the contexts, routes and hooks, then build the instances and run onModuleInit.
  const contexts: Contexts = new Map()
  await app.register(named(async function decoratorRoot (root) {
    // Above every filter: answers what failed to go out, so no error text reaches the client.
    root.setErrorHandler(lastResortErrorHandler)
    if (serving && routes.length > 0 && !app.hasDecorator('swagger')) warnLateSwagger(root)
    await root.register(named(async function decoratorApp (instance) {
      await registerView(instance, app, options.view)
      versioning.install(instance)
      instance.setErrorHandler(createErrorHandler([ctx.globals.filters], refs))
      // Before the module contexts exist: each takes the schemas its parent has.
      for (const schema of ctx.dto.sharedSchemas()) instance.addSchema(schema)
      for (const module of modules) {
        await instance.register(named(async function moduleContext (child) {
          contexts.set(module, child)
          // The module's plugins, then its providers' hooks, apply to every controller registered after them.
          await registerModulePlugins(child, modulePlugins.get(module)!, () => moduleRoutes(module, plansOf.get(module)!, plans))
          addProviderHooks(child, module, container)
          if (serving) await registerControllers(child, plansOf.get(module)!, ctx, noAutoHead, contexts)
        }))
      }
    }))
    // A controller injects its own context; providers, enhancers and module classes their module's.
    await container.instantiate(contextOf(contexts))
    await refs.fill()
    // Before the app is ready, while the routes' hooks can still be added to.
    if (serving) {
      await applyMiddleware(container, modules, plans, { prefix: ctx.prefix, versioning: options.versioning })
      addRequestContext(plans.flatMap((plan) => plan.routes))
      useAppLogger(root)
    }
    // Modules loaded later (LazyModuleLoader) add theirs to the same list, for the stop hooks.
    container.lifecycleTargets = lifecycleOrder(container.takeCreated(), modules)
    await startLifecycle(app, root, container, container.lifecycleTargets, options, internal)
    // Once onModuleInit has run; closed before the HTTP server is, which waits for no upgraded socket.
    if (serving && gateways !== undefined) {
      const served = await gateways.serve(container, options.websocketAdapter, app.server, app.log)
      root.addHook('preClose', async () => { await served.close() })
    }
  }))
  // Decorated last: an application that failed to build leaves nothing on the parent.
  app.decorate('container', appContainer(container, container.graph.root))
}

// @fastify/swagger documents the routes added after it: registered later, it would leave this
// application's routes out of its document without a word. The hook is the plugin's own
// context's, which sees what the app is decorated with later.
function warnLateSwagger (root: FastifyInstance): void {
  root.addHook('onReady', function (done) {
    if (this.hasDecorator('swagger')) {
      this.log.warn('@fastify/swagger was registered after fastify-decorator-plugin: it documents only the routes added after it, so its document leaves out the decorated routes. Register @fastify/swagger before decoratorPlugin.')
    }
    done()
  })
}

/** Registers a decorator application, from its root module, inside a Fastify app. */
const plugin = fp(decoratorPlugin, { name: 'fastify-decorator-plugin', fastify: '5.x' })
export { plugin as decoratorPlugin }
