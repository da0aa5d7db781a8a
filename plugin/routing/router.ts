import type { FastifyInstance, RouteOptions } from 'fastify'
import type { Binding } from '../di/container.js'
import type { ModuleNode } from '../di/scanner.js'
import type { ControllerPlan, RoutePlan, RouterContext } from './planner.js'
import { createErrorHandler } from '../pipeline/exception-handler.js'
import { addHooks } from './hooks.js'
import { installRawBodyParsers } from './raw-body.js'
import { checkRequestPlugins } from './request-plugins.js'

/** Each module's and each controller's encapsulated Fastify context, as registration creates them. */
export type Contexts = Map<ModuleNode | Binding, FastifyInstance>

/**
 * Fastify names every plugin it registers: without a display name it looks for the function
 * among the exports of every loaded CommonJS module, twice per context, which for hundreds of
 * controllers costs more than the rest of their registration. The names are the functions' own,
 * as Fastify would have found them.
 */
export function named<F extends Function> (fn: F): F {
  return Object.assign(fn, { [Symbol.for('fastify.display-name')]: fn.name })
}

interface ControllerOptions { prefix: string, plan: ControllerPlan, ctx: RouterContext, noAutoHead: Set<RoutePlan>, contexts: Contexts }

// One function for every controller: what differs comes in its registration options.
const controllerContext = named(async function controllerContext (instance: FastifyInstance, { plan, ctx, noAutoHead, contexts }: ControllerOptions) {
  contexts.set(plan.binding, instance)
  if (plan.filters.length > 0) {
    instance.setErrorHandler(createErrorHandler([ctx.globals.filters, plan.filters], ctx.refs))
  }
  addHooks(instance, plan.binding, ctx.container)
  checkRequestPlugins(instance, plan)
  // With the rawBody option every route keeps the bytes; otherwise routes that take @RawBody() live
  // in a child context whose JSON and text parsers keep them.
  let rawContext: FastifyInstance | undefined
  if (ctx.rawBody) {
    installRawBodyParsers(instance, true)
    rawContext = instance
  } else if (plan.routes.some((route) => route.rawBody)) {
    await instance.register(named(async function rawBodyContext (child) {
      installRawBodyParsers(child)
      rawContext = child
    }))
  }
  // Each route said once at debug level, as NestJS users know it and Fastify users can turn on.
  const mapped = instance.log.level === 'debug' || instance.log.level === 'trace'
  for (let r = 0; r < plan.routes.length; r++) {
    const route = plan.routes[r]
    const context = route.rawBody ? rawContext! : instance
    const planned = route.options
    // Fastify copies a route's options (`{ ...options }`) and then adds to its copy. V8 copies a
    // plain object through its hidden class, and each property added to such a copy then makes a
    // new hidden class, route after route. A null-prototype object (kept as a dictionary) is
    // copied property by property instead, and the copies share their hidden classes: startup
    // allocates about a third as much per route as with plain objects, made by a spread or not.
    const options = {
      __proto__: null,
      // One method as a string, as a plain Fastify route has it in request.routeOptions.
      method: route.methods.length === 1 ? route.methods[0] : route.methods,
      url: route.url === '' && plan.prefix === '' ? '/' : route.url,
      handler: planned.handler,
      config: planned.config,
      // The arrays themselves: middleware and the Logger's request context add to them until the app is ready.
      onRequest: route.hooks.onRequest,
      preValidation: route.hooks.preValidation
    } as RouteOptions
    if (planned.preHandler !== undefined) options.preHandler = planned.preHandler
    if (planned.errorHandler !== undefined) options.errorHandler = planned.errorHandler
    if (planned.schema !== undefined) options.schema = planned.schema
    if (planned.validatorCompiler !== undefined) options.validatorCompiler = planned.validatorCompiler
    // Set only where they differ from Fastify's defaults: it copies every key of every route.
    // '/' below a prefix would be registered with and without the slash, unless told otherwise.
    if (route.slash) options.prefixTrailingSlash = 'slash'
    // No constraint at all on unversioned, host-free routes: they stay plain Fastify routes.
    if (Object.keys(route.constraints).length > 0) options.constraints = route.constraints
    if (noAutoHead.has(route)) options.exposeHeadRoute = false
    context.route(options)
    if (mapped) logMapped(context, route, options.url)
  }
})

function logMapped (context: FastifyInstance, route: RoutePlan, path: string): void {
  const joined = context.prefix + path
  const url = joined.length > 1 && joined.endsWith('/') && !route.slash ? joined.slice(0, -1) : joined
  const method = route.methods.join(', ')
  const [controller, handler] = route.owner.split('.')
  const version = route.version === undefined ? '' : ` (version: ${route.version})`
  context.log.debug({ method, url, version: route.version, controller, handler }, `Mapped {${url}, ${method}}${version} route to ${route.owner}`)
}

/**
 * Registers each controller as its own encapsulated context of its module's, its routes inside.
 * Queued in batches, each awaited before the next: awaiting every controller gives avvio an
 * extra plugin per controller to load, while queuing them all at once makes Fastify's
 * per-route preReady listeners costlier to remove (figures in bench/README.md).
 */
export async function registerControllers (parent: FastifyInstance, plans: ControllerPlan[], ctx: RouterContext, noAutoHead: Set<RoutePlan>, contexts: Contexts): Promise<void> {
  for (let first = 0; first < plans.length; first += batchSize) {
    const batch: Array<Partial<ControllerOptions>> = []
    for (let i = first; i < plans.length && i < first + batchSize; i++) {
      const options: Partial<ControllerOptions> = { prefix: plans[i].prefix, plan: plans[i], ctx, noAutoHead, contexts }
      parent.register(controllerContext, options as ControllerOptions)
      batch.push(options)
    }
    await parent
    // Fastify keeps the options of the plugins it loaded: not the plans, done with once registered.
    for (const options of batch) options.plan = options.noAutoHead = undefined
  }
}

const batchSize = 32
