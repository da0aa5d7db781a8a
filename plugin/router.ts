import type { FastifyInstance, RouteOptions } from 'fastify'
import type { CanActivate, ExceptionFilter, NestInterceptor, PipeTransform, PrefixTrailingSlash, Type, VersionValue } from '../types/index.js'
import type { Binding, Container } from './container.js'
import type { ModuleNode } from './scanner.js'
import type { EnhancerRef, EnhancerRefs } from './enhancer-ref.js'
import type { Versioning } from './versioning.js'
import { controllerDefinition, routeDefinitions } from './controller.js'
import { paramDefinitions } from './params.js'
import { enhancersOf } from './enhancers.js'
import { kFilters, kGuards, kHeaders, kHttpCode, kInterceptors, kPipes, kRedirect, kRender, kRouteInfo } from './symbols.js'
import { buildGuardHook, buildHandler, type HandlerPlan } from './pipeline.js'
import { createErrorHandler } from './exception-handler.js'
import { addHooks } from './hook-handlers.js'
import { installRawBodyParsers, wantsRawBody } from './raw-body.js'
import { buildUploadHook, checkMultipart, wantsUploads } from './multipart.js'
import { handlerVersion } from './version.js'
import { checkConstraints, routeOptionsOf } from './route-options.js'
import { checkHostParams, type Host } from './host.js'
import { ERR_DUPLICATE_ROUTE, ERR_INVALID_DECLARATION } from './errors.js'
import { lateRouteHooks, type LateRouteHooks } from './route-hooks.js'
import type { DtoSchemas } from './dto-registry.js'
import { planRouteDtos } from './dto-routes.js'
import { joinPath } from './paths.js'

export interface Globals {
  guards: Array<EnhancerRef<CanActivate>>
  pipes: Array<EnhancerRef<PipeTransform>>
  interceptors: Array<EnhancerRef<NestInterceptor>>
  filters: Array<EnhancerRef<ExceptionFilter>>
}

export interface RoutePlan {
  owner: string
  methods: string[]
  url: string
  fullUrl: string
  /** The trailing-slash URL of a controller root route (`prefixTrailingSlash` 'slash' or 'both'). */
  slash: boolean
  constraints: Record<string, unknown>
  render?: string
  /** Takes @RawBody(): served from a child context whose parsers keep the bytes. */
  rawBody: boolean
  /** Takes @UploadedFile(s): needs @fastify/multipart in its context. */
  uploads: boolean
  build: () => Partial<RouteOptions>
  /** Filled once the application is built (middleware, request context), before the app is ready. */
  hooks: LateRouteHooks
}

export interface ControllerPlan {
  module: ModuleNode
  cls: Type
  binding: Binding
  prefix: string
  filters: Array<EnhancerRef<ExceptionFilter>>
  routes: RoutePlan[]
}

export interface RouterContext {
  container: Container
  refs: EnhancerRefs
  versioning: Versioning
  globals: Globals
  prefix: string
  prefixTrailingSlash: PrefixTrailingSlash
  /** The app's router setting: with it, one route serves both `/cats` and `/cats/`. */
  ignoreTrailingSlash: boolean
  uriVersioning: boolean
  allMethods: string[]
  /** Whether the app has a route-constraint strategy of that name. */
  hasConstraintStrategy: (name: string) => boolean
  /** The application's DTOs compiled to JSON schemas. */
  dto: DtoSchemas
}

/** Plans every controller's routes; nothing touches Fastify until the whole plan is valid. */
export function planControllers (module: ModuleNode, ctx: RouterContext): ControllerPlan[] {
  return module.controllers.map((cls) => planController(module, cls, ctx))
}

function planController (module: ModuleNode, cls: Type, ctx: RouterContext): ControllerPlan {
  const { container, refs, globals } = ctx
  const definition = controllerDefinition(cls)!
  const binding = container.controller(module, cls, definition.scope)
  const classEnhancers = {
    guards: refs.of<CanActivate>(enhancersOf(kGuards, cls), module),
    pipes: refs.of<PipeTransform>(enhancersOf(kPipes, cls), module),
    interceptors: refs.of<NestInterceptor>(enhancersOf(kInterceptors, cls), module),
    filters: refs.of<ExceptionFilter>(enhancersOf(kFilters, cls), module)
  }
  const prefix = ctx.uriVersioning ? joinPath(ctx.prefix) : joinPath(ctx.prefix, definition.path)
  const hosts = definition.host === undefined ? [undefined] : (Array.isArray(definition.host) ? definition.host : [definition.host])
  const routes: RoutePlan[] = []

  for (const route of routeDefinitions(cls)) {
    const method = (cls.prototype as Record<string | symbol, unknown>)[route.key]
    const name = `${cls.name}.${String(route.key)}`
    if (typeof method !== 'function') {
      throw new ERR_INVALID_DECLARATION(`${name} is decorated as a route but is not a method.`)
    }
    const params = paramDefinitions(cls.prototype, route.key)
    const seen = new Set<number>()
    for (const param of params) {
      if (seen.has(param.index)) throw new ERR_INVALID_DECLARATION(`${name}: parameter ${param.index} has more than one parameter decorator; keep one.`)
      seen.add(param.index)
    }
    const guards = [...globals.guards, ...classEnhancers.guards, ...refs.of<CanActivate>(enhancersOf(kGuards, method), module)]
    const pipes = [...globals.pipes, ...classEnhancers.pipes, ...refs.of<PipeTransform>(enhancersOf(kPipes, method), module)]
    const interceptors = [...globals.interceptors, ...classEnhancers.interceptors, ...refs.of<NestInterceptor>(enhancersOf(kInterceptors, method), module)]
    const methodFilters = refs.of<ExceptionFilter>(enhancersOf(kFilters, method), module)
    const paramPipes = new Map(params.map((param) => [param, refs.of<PipeTransform>(param.pipes, module)]))
    const render: string | undefined = Reflect.getOwnMetadata(kRender, method)
    const options = routeOptionsOf(method)
    // A handler's own host constraint is more specific than its controller's.
    const routeHosts = options.constraints?.host !== undefined ? [undefined] : hosts
    const hostList = (options.constraints?.host !== undefined ? [options.constraints.host] : hosts).filter((host) => host !== undefined) as Host[]
    checkHostParams(name, params, hostList)
    const plan: HandlerPlan = {
      cls,
      key: route.key,
      method: method as HandlerPlan['method'],
      controller: binding,
      params,
      paramTypes: Reflect.getMetadata('design:paramtypes', cls.prototype, route.key),
      pipes,
      interceptors,
      status: Reflect.getOwnMetadata(kHttpCode, method) ?? (route.method === 'POST' ? 201 : 200),
      headers: Reflect.getOwnMetadata(kHeaders, method) ?? [],
      redirect: Reflect.getOwnMetadata(kRedirect, method),
      render,
      hosts: hostList
    }
    checkConstraints(name, options.constraints, ctx.hasConstraintStrategy)
    const dtoParams = params.map((param) => ({ param, metatype: plan.paramTypes?.[param.index], pipes: [...pipes, ...paramPipes.get(param)!] }))
    const dto = planRouteDtos(name, options.schema, dtoParams, wantsUploads(params), ctx.dto)
    const version: VersionValue | undefined = handlerVersion(method) ?? definition.version
    const methods = route.method === 'ALL' ? ctx.allMethods : [route.method]
    // An @All route claims every method: say so when it collides with an explicit one.
    const owner = route.method === 'ALL' ? `${name} (@All)` : name
    // Like Fastify's prefixTrailingSlash: only a root route, one whose own path is empty, has the choice.
    const trailingSlash = joinPath(route.path) === '' ? definition.prefixTrailingSlash ?? ctx.prefixTrailingSlash : 'no-slash'
    // Built after the container is final (scopes are known then), once per route.
    let built: Partial<RouteOptions> | undefined
    const build = (): Partial<RouteOptions> => {
      if (built) return built
      built = {
        handler: buildHandler(plan, container, refs, (param) => paramPipes.get(param)!) as RouteOptions['handler'],
        preValidation: guards.length > 0 ? buildGuardHook(guards, plan, refs) : undefined,
        preHandler: buildUploadHook(params),
        errorHandler: methodFilters.length > 0 ? createErrorHandler([globals.filters, classEnhancers.filters, methodFilters], refs) : undefined,
        schema: dto.schema,
        validatorCompiler: dto.validatorCompiler,
        config: { ...options.config, [kRouteInfo]: { cls, handler: method } }
      } as Partial<RouteOptions>
      return built
    }

    for (const variant of ctx.versioning.variants(version)) {
      for (const host of routeHosts) {
        const url = ctx.uriVersioning ? joinPath(variant.segment, definition.path, route.path) : joinPath(route.path)
        const constraints: Record<string, unknown> = { ...options.constraints }
        if (host !== undefined) constraints.host = host
        if (variant.constraint) constraints[variant.constraint.name] = variant.constraint.value
        const fullUrl = joinPath(prefix, url) || '/'
        for (const slash of slashVariants(fullUrl, trailingSlash, ctx.ignoreTrailingSlash)) {
          const ending = slash ? '/' : ''
          routes.push({ owner, methods, url: url + ending, fullUrl: fullUrl + ending, slash, constraints, render, rawBody: wantsRawBody(params), uploads: wantsUploads(params), build, hooks: lateRouteHooks() })
        }
      }
    }
  }
  return { module, cls, binding, prefix, filters: classEnhancers.filters, routes }
}

// Whether each URL a root route is registered under ends with a slash. Under the app's
// ignoreTrailingSlash one route serves both, and a second would be a duplicate.
function slashVariants (fullUrl: string, option: PrefixTrailingSlash, ignoreTrailingSlash: boolean): boolean[] {
  if (fullUrl === '/' || option === 'no-slash') return [false]
  if (option === 'slash') return [true]
  return ignoreTrailingSlash ? [false] : [false, true]
}

function constraintKey (constraints: Record<string, unknown>): string {
  return Object.keys(constraints).sort().map((key) => `${key}=${String(constraints[key])}`).join(',')
}

// Index of the parenthesis closing the one at `open`, skipping escaped characters.
function closingParenthesis (path: string, open: number): number {
  let depth = 0
  for (let i = open; i < path.length; i++) {
    if (path[i] === '\\') i++
    else if (path[i] === '(') depth++
    else if (path[i] === ')' && --depth === 0) return i
  }
  return path.length
}

/**
 * A path as Fastify's router tells routes apart (find-my-way's pattern): parameter names and
 * their regular expressions do not count, so `/:id` and `/:name` are one route, and so are
 * `/:id(^\\d+)` and `/:slug(^[a-z]+)`; static parts beside parameters (`/:file.png`) do.
 */
export function routeShape (path: string): string {
  let shape = ''
  let i = 0
  while (i < path.length) {
    if (path[i] === ':' && path[i + 1] === ':') { // an escaped, literal colon
      shape += '::'
      i += 2
      continue
    }
    if (path[i] !== ':') {
      shape += path[i++]
      continue
    }
    // One parametric segment: parameters, each with an optional regular expression and static part.
    let parts = ''
    let plain = true
    for (i++; ; i++) {
      while (i < path.length && !'(-./'.includes(path[i])) i++
      if (path[i] === '(') i = closingParenthesis(path, i) + 1
      let fixed = ''
      while (i < path.length && path[i] !== '/' && !(path[i] === ':' && path[i + 1] !== ':')) fixed += path[i++]
      plain &&= parts === '' && fixed === '' && path[i - 1] !== ')'
      parts += `()${fixed}`
      if (i >= path.length || path[i] === '/') break
    }
    shape += plain ? ':' : `:${parts}`
  }
  return shape
}

function claimKey (method: string, route: RoutePlan): string {
  return `${method} ${routeShape(route.fullUrl)} ${constraintKey(route.constraints)}`
}

/** Fails on two handlers claiming one method, path and constraints; plans HEAD beside GET. */
export function checkRoutes (plans: ControllerPlan[]): Set<RoutePlan> {
  const claims = new Map<string, RoutePlan>()
  for (const route of plans.flatMap((plan) => plan.routes)) {
    for (const method of route.methods) {
      const key = claimKey(method, route)
      const other = claims.get(key)
      if (other) {
        const where = Object.keys(route.constraints).length > 0 ? ` with constraints {${constraintKey(route.constraints)}}` : ''
        const path = other.fullUrl === route.fullUrl ? route.fullUrl : `${other.fullUrl} and ${route.fullUrl} (one path to Fastify's router: parameter names do not tell routes apart)`
        throw new ERR_DUPLICATE_ROUTE(`${other.owner} and ${route.owner} both handle ${method} ${path}${where}. Give one of them another path, method, host or version.`)
      }
      claims.set(key, route)
    }
  }
  // A GET whose path also has an explicit HEAD handler must not expose Fastify's automatic HEAD.
  const noAutoHead = new Set<RoutePlan>()
  for (const route of plans.flatMap((plan) => plan.routes)) {
    const head = claimKey('HEAD', route)
    if (route.methods.includes('GET') && claims.has(head) && claims.get(head) !== route) noAutoHead.add(route)
  }
  return noAutoHead
}

/** Fails on a handler that claims a route the app already has, before anything is registered. */
export function checkAppRoutes (app: FastifyInstance, plans: ControllerPlan[]): void {
  for (const route of plans.flatMap((plan) => plan.routes)) {
    for (const method of route.methods) {
      if (app.hasRoute({ method, url: route.fullUrl, constraints: route.constraints } as Parameters<FastifyInstance['hasRoute']>[0])) {
        throw new ERR_DUPLICATE_ROUTE(`${route.owner} handles ${method} ${route.fullUrl}, which the app already has as a route of its own. Remove one of them, or give the controller another path or prefix.`)
      }
    }
  }
}

/** Registers a controller as its own encapsulated context of its module's, its routes inside. */
export async function registerController (parent: FastifyInstance, plan: ControllerPlan, ctx: RouterContext, noAutoHead: Set<RoutePlan>): Promise<void> {
  await parent.register(async function controllerContext (instance) {
    plan.binding.fastify = instance
    if (plan.filters.length > 0) {
      instance.setErrorHandler(createErrorHandler([ctx.globals.filters, plan.filters], ctx.refs))
    }
    addHooks(instance, plan.binding, ctx.container)
    const uploads = plan.routes.find((route) => route.uploads)
    if (uploads) checkMultipart(instance, uploads.owner, plan.module.name)
    // Routes that take @RawBody() live in a child context whose JSON and text parsers keep the bytes.
    let rawContext: FastifyInstance | undefined
    if (plan.routes.some((route) => route.rawBody)) {
      await instance.register(async function rawBodyContext (child) {
        installRawBodyParsers(child)
        rawContext = child
      })
    }
    for (const route of plan.routes) {
      const options = route.build()
      const context = route.rawBody ? rawContext! : instance
      if (options.preValidation) route.hooks.preValidation.push(options.preValidation as LateRouteHooks['preValidation'][number])
      context.route({
        ...options,
        onRequest: route.hooks.onRequest,
        preValidation: route.hooks.preValidation,
        // One method as a string, as a plain Fastify route has it in request.routeOptions.
        method: route.methods.length === 1 ? route.methods[0] : route.methods,
        url: route.url === '' && plan.prefix === '' ? '/' : route.url,
        // '/' below a prefix would be registered with and without the slash, unless told otherwise.
        prefixTrailingSlash: route.slash ? 'slash' : undefined,
        // No constraint at all on unversioned, host-free routes: they stay plain Fastify routes.
        constraints: Object.keys(route.constraints).length > 0 ? route.constraints : undefined,
        exposeHeadRoute: noAutoHead.has(route) ? false : undefined
      } as RouteOptions)
    }
  }, { prefix: plan.prefix })
}
