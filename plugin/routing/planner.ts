import type { RouteOptions } from 'fastify'
import type { ExceptionFilter, PipeTransform, PrefixTrailingSlash, Type } from '../../types/index.js'
import type { Binding, Container } from '../di/container.js'
import type { ModuleNode } from '../di/scanner.js'
import type { EnhancerRef, EnhancerRefLists, EnhancerRefs } from '../di/enhancer-ref.js'
import type { ParamDefinition, ParamKind } from '../decorators/params.js'
import type { Versioning } from '../versioning/versioning.js'
import type { ControllerScan, HandlerScan } from './controller-scan.js'
import type { ControllerDefinition } from '../decorators/controller.js'
import { kRouteInfo } from '../util/symbols.js'
import { buildHandler, type HandlerPlan } from '../pipeline/handler.js'
import { buildGuardHook } from '../pipeline/guards.js'
import { createErrorHandler, type RouteInfo } from '../pipeline/exception-handler.js'
import { buildUploadHook, isUpload } from '../decorators/uploads.js'
import { checkConstraints } from '../decorators/route-options.js'
import { joinPath } from '../util/paths.js'
import { lateRouteHooks, type LateRouteHooks } from './route-hooks.js'
import { checkHostParams, type Host } from '../decorators/host.js'
import type { DtoSchemas } from '../validation/dto-registry.js'
import { isDtoPart, planRouteDtos, type DtoParam } from '../validation/dto-routes.js'
import { noEntries } from '../util/empty.js'
import { noExclusions } from './global-prefix.js'
import type { ModelSchemas } from '../openapi/model-schemas.js'
import { nestSwaggerTransform } from './nest-swagger.js'
import { readsPlugin } from './request-plugins.js'

export interface RoutePlan {
  owner: string
  methods: string[]
  url: string
  fullUrl: string
  /** The API version it serves, if any. */
  version?: string
  /** Served without the global prefix (its `exclude` option takes it out). */
  unprefixed?: true
  /** The trailing-slash URL of a controller root route (`prefixTrailingSlash` 'slash' or 'both'). */
  slash: boolean
  constraints: Record<string, unknown>
  render?: string
  /** Takes @RawBody(): served from a child context whose parsers keep the bytes. */
  rawBody: boolean
  /** Takes @UploadedFile(s): needs @fastify/multipart in its context. */
  uploads: boolean
  /** The kinds of its parameters that read what another plugin adds (files, cookies, the session). */
  reads: ParamKind[]
  /** Has interceptors: next.handle() is an Observable too when rxjs is installed. */
  intercepted: boolean
  options: PlannedOptions
  /** The route's onRequest and preValidation hooks (guards first); filled further once the application is built. */
  hooks: LateRouteHooks
}

/** The Fastify options a handler's routes share; the router adds each route's own (method, URL, hooks). */
export type PlannedOptions = Pick<RouteOptions, 'handler' | 'config'> & Partial<Pick<RouteOptions, 'preHandler' | 'errorHandler' | 'schema' | 'validatorCompiler'>>

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
  globals: EnhancerRefLists
  prefix: string
  /** Whether a route (its path below the prefix, its declared method) is served without the prefix. */
  excludes: (path: string, method: string) => boolean
  /** Each module class's path (RouterModule), put between the prefix and its controllers' paths. */
  modulePaths: Map<Function, string>
  prefixTrailingSlash: PrefixTrailingSlash
  /** The app's router setting: with it, one route serves both `/cats` and `/cats/`. */
  ignoreTrailingSlash: boolean
  uriVersioning: boolean
  allMethods: string[]
  /** Whether the app has a route-constraint strategy of that name. */
  hasConstraintStrategy: (name: string) => boolean
  /** The application's DTOs compiled to JSON schemas. */
  dto: DtoSchemas
  /** The `rawBody` option: every controller context keeps the bytes of the bodies it parses. */
  rawBody: boolean
  /** Set when @fastify/swagger documents an application using @nestjs/swagger's decorators. */
  openapi?: ModelSchemas
}

/**
 * Plans a controller's routes with their Fastify route options, once the container is final (so
 * scopes are known). Nothing touches Fastify until every plan is made and checked.
 */
export function planController (scan: ControllerScan, ctx: RouterContext): ControllerPlan {
  const { module, cls, definition } = scan
  const binding = ctx.container.controller(module, cls, definition.scope)
  const enhancers = ctx.refs.lists(scan.enhancers, module)
  // NestJS's order: prefix, version, module path, controller path, route path.
  const modulePath = ctx.modulePaths.get(module.cls) ?? ''
  const prefix = ctx.uriVersioning ? joinPath(ctx.prefix) : joinPath(ctx.prefix, modulePath, definition.path)
  const hosts = definition.host === undefined ? noHost : (Array.isArray(definition.host) ? definition.host : [definition.host])
  const controller: ControllerPlan = { module, cls, binding, prefix, filters: enhancers.filters, routes: [] }
  // A function per handler: V8 optimizes a small function that runs for every route much faster
  // than one that loops over them all (this code runs once per route, at startup).
  for (let i = 0; i < scan.handlers.length; i++) planHandler(scan.handlers[i], controller, definition, modulePath, enhancers, hosts, ctx)
  return unprefixedRoutes(controller)
}

// A controller with routes out of the global prefix is a context without a Fastify prefix: each of
// its routes is registered with its full URL.
function unprefixedRoutes (controller: ControllerPlan): ControllerPlan {
  const { routes } = controller
  if (!routes.some((route) => route.unprefixed === true)) return controller
  controller.prefix = ''
  for (let i = 0; i < routes.length; i++) routes[i].url = routes[i].fullUrl
  return controller
}

function planHandler (handler: HandlerScan, controller: ControllerPlan, definition: ControllerDefinition, modulePath: string, classEnhancers: EnhancerRefLists, hosts: Array<Host | undefined>, ctx: RouterContext): void {
  const { container, refs, globals } = ctx
  const { module, cls, binding, prefix, routes } = controller
  const { name, method, params, options } = handler
  const own = refs.lists(handler.enhancers, module)
  const guards = concat(globals.guards, classEnhancers.guards, own.guards)
  const pipes = concat(globals.pipes, classEnhancers.pipes, own.pipes)
  const interceptors = concat(globals.interceptors, classEnhancers.interceptors, own.interceptors)
  // One pass over the parameters: their pipes in the order they run, the handler's then their own
  // (a map only for a handler whose parameters have some of their own; one list each, which the
  // handler and DTO planning share), whether the route reads files or raw bytes, and which
  // parameters may be compiled DTOs (a whole body, query or params object with pipes). Plans live
  // until registration: a route with none of these holds no list of its own.
  let paramPipes: Map<ParamDefinition, Array<EnhancerRef<PipeTransform>>> | undefined
  let dtoParams: DtoParam[] = noEntries
  let uploads = false
  let rawBody = false
  let reads: ParamKind[] = noEntries
  for (let i = 0; i < params.length; i++) {
    const param = params[i]
    const ownPipes = refs.of<PipeTransform>(param.pipes, module)
    const paramPipesInOrder = ownPipes.length === 0 ? pipes : (pipes.length === 0 ? ownPipes : [...pipes, ...ownPipes])
    if (ownPipes.length > 0) (paramPipes ??= new Map()).set(param, paramPipesInOrder)
    if (paramPipesInOrder.length > 0 && isDtoPart(param)) {
      if (dtoParams === noEntries) dtoParams = []
      dtoParams.push({ param, metatype: handler.paramTypes?.[param.index], pipes: paramPipesInOrder })
    }
    uploads ||= isUpload(param)
    rawBody ||= param.kind === 'rawBody'
    if (readsPlugin(param.kind)) reads = reads === noEntries ? [param.kind] : [...reads, param.kind]
  }
  // A handler's own host constraint is more specific than its controller's.
  const ownHost = options.constraints?.host !== undefined
  const routeHosts = ownHost ? noHost : hosts
  const hostList = ownHost ? [options.constraints!.host as Host] : (hosts === noHost ? noEntries : hosts.filter((host) => host !== undefined) as Host[])
  checkHostParams(name, params, hostList)
  const { key, paramTypes, status, headers, redirect, render, sse } = handler
  const plan: HandlerPlan = { key, method, params, paramTypes, status, headers, redirect, render, cls, controller: binding, pipes, interceptors, hosts: hostList, sse }
  checkConstraints(name, options.constraints, ctx.hasConstraintStrategy)
  const dto = planRouteDtos(name, options.schema, dtoParams, uploads, ctx.dto)
  const methods = handler.routeMethod === 'ALL' ? ctx.allMethods : oneMethod(handler.routeMethod)
  // An @All route claims every method: say so when it collides with an explicit one.
  const owner = handler.routeMethod === 'ALL' ? `${name} (@All)` : name
  const path = joinPath(handler.path)
  // The route's text below the prefix and a URI version, which the prefix's exclusions are tested on.
  const below = ctx.excludes === noExclusions ? '' : joinPath(modulePath, definition.path, handler.path)
  const unprefixed = ctx.excludes !== noExclusions && ctx.prefix !== '' && ctx.excludes(below, handler.routeMethod)
  // Like Fastify's prefixTrailingSlash: only a root route, one whose own path is empty, has the choice.
  const trailingSlash = path === '' ? definition.prefixTrailingSlash ?? ctx.prefixTrailingSlash : 'no-slash'
  // One set of route options per handler, shared by its versions, hosts and slash variants.
  const guardHook = guards.length > 0 ? buildGuardHook(guards, plan, refs) : undefined
  // Only the options the route sets: Fastify copies them per route (twice for a GET), and keeps
  // the copies until the app is ready.
  const routeOptions: PlannedOptions = {
    handler: buildHandler(plan, container, refs, paramPipes) as RouteOptions['handler'],
    config: routeConfig(options.config, { cls, handler: method })
  }
  if (ctx.openapi !== undefined) (routeOptions.config as Record<string, unknown>).swaggerTransform = nestSwaggerTransform(cls, handler, ctx.openapi)
  if (uploads) routeOptions.preHandler = buildUploadHook(params)
  if (own.filters.length > 0) routeOptions.errorHandler = createErrorHandler([globals.filters, classEnhancers.filters, own.filters], refs)
  if (dto.schema !== undefined) routeOptions.schema = dto.schema
  if (dto.validatorCompiler !== undefined) routeOptions.validatorCompiler = dto.validatorCompiler as RouteOptions['validatorCompiler']

  const variants = ctx.versioning.variants(handler.version)
  for (let v = 0; v < variants.length; v++) {
    const variant = variants[v]
    for (let h = 0; h < routeHosts.length; h++) {
      const host = routeHosts[h]
      const url = ctx.uriVersioning ? joinPath(variant.segment, modulePath, definition.path, handler.path) : path
      const constraints = host === undefined && !variant.constraint && options.constraints === undefined ? noConstraints : { ...options.constraints }
      if (host !== undefined) constraints.host = host
      if (variant.constraint) constraints[variant.constraint.name] = variant.constraint.value
      // Both joined already ('' or '/a/b'): their concatenation is joined too, without a pass over it.
      const fullUrl = (unprefixed ? (ctx.uriVersioning ? url : below) : prefix + url) || '/'
      const slashes = slashVariants(fullUrl, trailingSlash, ctx.ignoreTrailingSlash)
      for (let i = 0; i < slashes.length; i++) {
        const ending = slashes[i] ? '/' : ''
        const route: RoutePlan = { owner, methods, url: url + ending, fullUrl: fullUrl + ending, version: variant.version, slash: slashes[i], constraints, render, rawBody, uploads, reads, intercepted: interceptors.length > 0, options: routeOptions, hooks: lateRouteHooks(guardHook) }
        if (unprefixed) route.unprefixed = true
        routes.push(route)
      }
    }
  }
}

/**
 * The route's config with its route info. Fastify copies a route's config as
 * `{ ...config, url, method }`; V8 clones a plain object's own shape for a spread, and the
 * properties added after it then give every route's copy a hidden class of its own (about 180
 * bytes per route, kept as long as the app runs). A config in dictionary mode is copied property
 * by property instead, and the copies share one hidden class, as plain Fastify routes' do.
 */
const kPlaceholder = Symbol('fdp.placeholder')

function routeConfig (config: Record<string, unknown> | undefined, info: RouteInfo): Record<string | symbol, unknown> {
  const dictionary: Record<string | symbol, unknown> = { [kPlaceholder]: undefined, ...config, [kRouteInfo]: info }
  // Deleting a property other than the last one is what switches V8 to dictionary mode.
  delete dictionary[kPlaceholder]
  return dictionary
}

// Planning runs for every handler at startup: the common cases (no host, no enhancers, one URL)
// share constant lists instead of building new ones. Frozen, so nothing can add to them.
const noHost = Object.freeze([undefined]) as unknown as Array<Host | undefined>
/** A route without constraints: one shared, frozen object, which the route checks know by identity. */
export const noConstraints = Object.freeze({}) as Record<string, unknown>
const noSlash = Object.freeze([false]) as unknown as boolean[]
const slashOnly = Object.freeze([true]) as unknown as boolean[]
const bothSlashes = Object.freeze([false, true]) as unknown as boolean[]
// A route's one method as a list: one per method, shared by the routes.
const methodLists = new Map<string, string[]>()
function oneMethod (method: string): string[] {
  let list = methodLists.get(method)
  if (list === undefined) methodLists.set(method, list = Object.freeze([method]) as unknown as string[])
  return list
}

// The global, controller and handler lists in that order; a level's own list when the others are empty.
function concat<T> (global: T[], controller: T[], handler: T[]): T[] {
  if (controller.length === 0 && handler.length === 0) return global
  if (global.length === 0 && handler.length === 0) return controller
  if (global.length === 0 && controller.length === 0) return handler
  return [...global, ...controller, ...handler]
}

// Whether each URL a root route is registered under ends with a slash. Under the app's
// ignoreTrailingSlash one route serves both, and a second would be a duplicate.
function slashVariants (fullUrl: string, option: PrefixTrailingSlash, ignoreTrailingSlash: boolean): boolean[] {
  if (fullUrl === '/' || option === 'no-slash') return noSlash
  if (option === 'slash') return slashOnly
  return ignoreTrailingSlash ? noSlash : bothSlashes
}
