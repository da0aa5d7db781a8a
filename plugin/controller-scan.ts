import type { CanActivate, EnhancerEntry, ExceptionFilter, NestInterceptor, PipeTransform, Type, VersionValue } from '../types/index.js'
import type { ModuleNode } from './scanner.js'
import { controllerDefinition, routeDefinitions, type ControllerDefinition, type RouteDefinition, type RouteMethod } from './controller.js'
import { paramDefinitions, type ParamDefinition } from './params.js'
import { enhancersOf } from './enhancers.js'
import { handlerVersion } from './version.js'
import { routeOptionsOf, type RouteOptionsMetadata } from './route-options.js'
import type { RedirectDefinition } from './http.js'
import { kFilters, kGuards, kHeaders, kHttpCode, kInterceptors, kPipes, kRedirect, kRender } from './symbols.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { noEnhancerLists, noEntries } from './empty.js'

/** The kinds of enhancers, each with what its entries implement. */
export interface EnhancerKinds { guards: CanActivate, pipes: PipeTransform, interceptors: NestInterceptor, filters: ExceptionFilter }

/** The guards, pipes, interceptors and filters declared at one level (global, controller or handler). */
export type EnhancerLists = { [K in keyof EnhancerKinds]: Array<EnhancerEntry<EnhancerKinds[K]>> }

/** Everything a route handler declares, read once. */
export interface HandlerScan {
  key: string | symbol
  /** `Class.method`, for messages. */
  name: string
  method: (...args: any[]) => any
  routeMethod: RouteMethod
  path: string
  params: ParamDefinition[]
  paramTypes: unknown[] | undefined
  enhancers: EnhancerLists
  status: number
  headers: Array<[string, string]>
  redirect?: RedirectDefinition
  render?: string
  version?: VersionValue
  options: RouteOptionsMetadata
}

/** A controller of a module with its own declarations and its handlers'. */
export interface ControllerScan {
  module: ModuleNode
  cls: Type
  definition: ControllerDefinition
  enhancers: EnhancerLists
  handlers: HandlerScan[]
}

// Every scan lives until registration and most controllers and handlers declare nothing of
// these: they share them, frozen so that no reader can add to them.
const noDeclarations: OwnDeclarations = Object.freeze({
  enhancers: noEnhancerLists,
  headers: noEntries,
  options: Object.freeze({ schema: undefined, config: undefined, constraints: undefined })
})

function enhancerLists (holder: object): EnhancerLists {
  const guards = enhancersOf<CanActivate>(kGuards, holder)
  const pipes = enhancersOf<PipeTransform>(kPipes, holder)
  const interceptors = enhancersOf<NestInterceptor>(kInterceptors, holder)
  const filters = enhancersOf<ExceptionFilter>(kFilters, holder)
  if (guards.length === 0 && pipes.length === 0 && interceptors.length === 0 && filters.length === 0) return noEnhancerLists
  return { guards, pipes, interceptors, filters }
}

/** What decorators on a handler function itself declare (its routes and parameters are the class's). */
type OwnDeclarations = Pick<HandlerScan, 'enhancers' | 'headers' | 'redirect' | 'render' | 'options'> & { status?: number, version?: VersionValue }

function ownDeclarations (method: object): OwnDeclarations {
  // One look at the handler's keys spares a dozen lookups that would each find nothing.
  if (Reflect.getOwnMetadataKeys(method).length === 0) return noDeclarations
  return {
    enhancers: enhancerLists(method),
    status: Reflect.getOwnMetadata(kHttpCode, method),
    headers: Reflect.getOwnMetadata(kHeaders, method) ?? [],
    redirect: Reflect.getOwnMetadata(kRedirect, method),
    render: Reflect.getOwnMetadata(kRender, method),
    version: handlerVersion(method),
    options: routeOptionsOf(method)
  }
}

/** Reads the declarations of a module's controllers, checking what can be checked without Fastify. */
export function scanControllers (module: ModuleNode): ControllerScan[] {
  // Indexed loops and plain functions: this runs once per controller and handler, cold, where
  // iterators and closures each allocate.
  const classes = module.controllers
  const scans: ControllerScan[] = new Array(classes.length)
  for (let i = 0; i < classes.length; i++) {
    const cls = classes[i]
    const definition = controllerDefinition(cls)!
    const routes = routeDefinitions(cls)
    const handlers: HandlerScan[] = new Array(routes.length)
    for (let r = 0; r < routes.length; r++) handlers[r] = scanHandler(cls, definition, routes[r])
    scans[i] = { module, cls, definition, enhancers: enhancerLists(cls), handlers }
  }
  return scans
}

function scanHandler (cls: Type, definition: ControllerDefinition, route: RouteDefinition): HandlerScan {
  const method = (cls.prototype as Record<string | symbol, unknown>)[route.key]
  const name = `${cls.name}.${String(route.key)}`
  if (typeof method !== 'function') {
    throw new ERR_INVALID_DECLARATION(`${name} is decorated as a route but is not a method.`)
  }
  const params = paramDefinitions(cls.prototype, route.key)
  // A handler has a few parameters: comparing each with those before it needs no Set.
  for (let i = 1; i < params.length; i++) {
    for (let j = 0; j < i; j++) {
      if (params[j].index === params[i].index) throw new ERR_INVALID_DECLARATION(`${name}: parameter ${params[i].index} has more than one parameter decorator; keep one.`)
    }
  }
  const own = ownDeclarations(method)
  return {
    key: route.key,
    name,
    method: method as HandlerScan['method'],
    routeMethod: route.method,
    path: route.path,
    params,
    paramTypes: Reflect.getMetadata('design:paramtypes', cls.prototype, route.key),
    enhancers: own.enhancers,
    status: own.status ?? (route.method === 'POST' ? 201 : 200),
    headers: own.headers,
    redirect: own.redirect,
    render: own.render,
    version: own.version ?? definition.version,
    options: own.options
  }
}

/**
 * The guard, pipe, interceptor and filter classes a controller uses, in the order the container
 * binds them: the controller's own, then each handler's, its parameters' pipes last.
 */
export function enhancerClasses (scan: ControllerScan): Type[] {
  // Run for every controller at startup, where most lists are empty: no copies of them, and
  // plain functions and indexed loops, which allocate nothing in cold code.
  const classes: Type[] = []
  addListClasses(scan.enhancers, classes)
  const handlers = scan.handlers
  for (let h = 0; h < handlers.length; h++) {
    addListClasses(handlers[h].enhancers, classes)
    const params = handlers[h].params
    for (let p = 0; p < params.length; p++) addClasses(params[p].pipes, classes)
  }
  return classes
}

function addListClasses (lists: EnhancerLists, classes: Type[]): void {
  addClasses(lists.guards, classes)
  addClasses(lists.pipes, classes)
  addClasses(lists.interceptors, classes)
  addClasses(lists.filters, classes)
}

function addClasses (entries: unknown[], classes: Type[]): void {
  for (let i = 0; i < entries.length; i++) if (typeof entries[i] === 'function') classes.push(entries[i] as Type)
}
