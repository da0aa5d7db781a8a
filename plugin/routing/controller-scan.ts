import type { Type, VersionValue } from '../../types/index.js'
import type { ModuleNode } from '../di/scanner.js'
import type { ControllerUse } from '../di/container.js'
import { controllerDefinition, routeDefinitions, type ControllerDefinition, type RouteDefinition, type RouteMethod } from '../decorators/controller.js'
import { paramDefinitions, type ParamDefinition } from '../decorators/params.js'
import { enhancerLists, type EnhancerLists } from '../decorators/enhancers.js'
import { handlerVersion } from '../decorators/version.js'
import { routeOptionsOf, type RouteOptionsMetadata } from '../decorators/route-options.js'
import type { RedirectDefinition } from '../decorators/http.js'
import { kHeaders, kHttpCode, kRedirect, kRender } from '../util/symbols.js'
import { sseOf, type SseDefinition } from '../decorators/sse.js'
import { getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { noEnhancerLists, noEntries } from '../util/empty.js'

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
  sse?: SseDefinition
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

/** What decorators on a handler function itself declare (its routes and parameters are the class's). */
type OwnDeclarations = Pick<HandlerScan, 'enhancers' | 'headers' | 'redirect' | 'render' | 'sse' | 'options'> & { status?: number, version?: VersionValue }

function ownDeclarations (method: object): OwnDeclarations {
  return {
    enhancers: enhancerLists(method),
    status: getOwnMetadata(kHttpCode, method),
    headers: getOwnMetadata(kHeaders, method) ?? [],
    redirect: getOwnMetadata(kRedirect, method),
    render: getOwnMetadata(kRender, method),
    sse: sseOf(method),
    version: handlerVersion(method),
    options: routeOptionsOf(method)
  }
}

/**
 * Metadata of another decorator library the plugin reads (NestJS's, when installed): the scan
 * tells which controllers have it on their methods or parameters, from what it reads anyway, and
 * has it read into the plugin's before it scans them.
 */
export interface ForeignRoutes {
  /** Whether the reader has read the class already (nothing of it is left to find). */
  read: (cls: Function) => boolean
  /** Whether a method's metadata keys include the library's. */
  hasKeys: (keys: unknown[]) => boolean
  /** Whether the library's parameter decorators are on the method `key` of `cls` (or of a base class). */
  hasParamKeys: (cls: Function, key: string | symbol) => boolean
  /** Reads the class's methods and parameters into the plugin's metadata. */
  readRoutes: (cls: Function) => void
}

/** Reads the declarations of a module's controllers, checking what can be checked without Fastify. */
export function scanControllers (module: ModuleNode, foreign?: ForeignRoutes): ControllerScan[] {
  // Indexed loops and plain functions: startup code (plugin/README.md).
  const classes = module.controllers
  const scans: ControllerScan[] = new Array(classes.length)
  for (let i = 0; i < classes.length; i++) scans[i] = scanController(module, classes[i], foreign)
  return scans
}

function scanController (module: ModuleNode, cls: Type, foreign: ForeignRoutes | undefined): ControllerScan {
  if (foreign?.read(cls) === true) foreign = undefined
  const definition = controllerDefinition(cls)!
  const routes = routeDefinitions(cls)
  if (foreign !== undefined && foreignOffRoutes(cls, routes, foreign)) return rescan(module, cls, foreign)
  const handlers: HandlerScan[] = new Array(routes.length)
  for (let r = 0; r < routes.length; r++) {
    const handler = scanHandler(cls, definition, routes[r], foreign)
    if (handler === undefined) return rescan(module, cls, foreign!)
    handlers[r] = handler
  }
  return { module, cls, definition, enhancers: enhancerLists(cls), handlers }
}

// A controller whose methods have the other library's metadata: read into the plugin's, then
// scanned again as it now is (once: what was read is the plugin's).
function rescan (module: ModuleNode, cls: Type, foreign: ForeignRoutes): ControllerScan {
  foreign.readRoutes(cls)
  return scanController(module, cls, undefined)
}

// Whether a method that is no route of the plugin's has the other library's metadata (a route of its own).
function foreignOffRoutes (cls: Type, routes: RouteDefinition[], foreign: ForeignRoutes): boolean {
  for (let proto = cls.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const keys = Reflect.ownKeys(proto)
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]
      if (key === 'constructor' || isRouteKey(routes, key)) continue
      // A descriptor, so no getter runs.
      const value = Object.getOwnPropertyDescriptor(proto, key)?.value
      if (typeof value === 'function' && foreign.hasKeys(Reflect.getOwnMetadataKeys(value))) return true
    }
  }
  return false
}

function isRouteKey (routes: RouteDefinition[], key: string | symbol): boolean {
  for (let i = 0; i < routes.length; i++) if (routes[i].key === key) return true
  return false
}

// A handler's declarations, or undefined where it has the other library's metadata to read first.
function scanHandler (cls: Type, definition: ControllerDefinition, route: RouteDefinition, foreign: ForeignRoutes | undefined): HandlerScan | undefined {
  const method = (cls.prototype as Record<string | symbol, unknown>)[route.key]
  const name = `${cls.name}.${String(route.key)}`
  if (typeof method !== 'function') {
    throw new ERR_INVALID_DECLARATION(`${name} is decorated as a route but is not a method.`)
  }
  const params = paramDefinitions(cls.prototype, route.key)
  const paramTypes: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', cls.prototype, route.key)
  // One look at the handler's keys spares a dozen lookups that would each find nothing.
  const keys = Reflect.getOwnMetadataKeys(method)
  if (foreign !== undefined) {
    if (keys.length > 0 && foreign.hasKeys(keys)) return undefined
    // The other library's parameter decorators are looked for only where a parameter has none of
    // the plugin's (or where no parameter types were emitted to count them).
    if ((paramTypes === undefined || params.length < paramTypes.length) && foreign.hasParamKeys(cls, route.key)) return undefined
  }
  // A handler has a few parameters: comparing each with those before it needs no Set.
  for (let i = 1; i < params.length; i++) {
    for (let j = 0; j < i; j++) {
      if (params[j].index === params[i].index) throw new ERR_INVALID_DECLARATION(`${name}: parameter ${params[i].index} has more than one parameter decorator; keep one.`)
    }
  }
  const own = keys.length === 0 ? noDeclarations : ownDeclarations(method)
  if (own.sse !== undefined) checkEventStream(name, own, params)
  return {
    key: route.key,
    name,
    method: method as HandlerScan['method'],
    routeMethod: route.method,
    path: route.path,
    params,
    paramTypes,
    enhancers: own.enhancers,
    status: own.status ?? (route.method === 'POST' ? 201 : 200),
    headers: own.headers,
    redirect: own.redirect,
    render: own.render,
    sse: own.sse,
    version: own.version ?? definition.version,
    options: own.options
  }
}

/**
 * An @Sse() handler's answer is its stream: a view, a redirect or a reply the handler sends itself
 * would be a second answer. (NestJS renders or redirects the stream object, and writes the stream
 * beside whatever the handler sends on @Res().)
 */
function checkEventStream (name: string, own: OwnDeclarations, params: ParamDefinition[]): void {
  const other = own.render !== undefined ? '@Render()' : own.redirect !== undefined ? '@Redirect()' : undefined
  if (other !== undefined) throw new ERR_INVALID_DECLARATION(`${name} has both @Sse() and ${other}; an event stream is the whole answer. Remove ${other}, or serve the view or redirect from another route.`)
  for (let i = 0; i < params.length; i++) {
    if (params[i].kind === 'res' && params[i].passthrough !== true) {
      throw new ERR_INVALID_DECLARATION(`${name} has @Sse() and takes the reply with @Res() (parameter ${params[i].index}); the stream is sent for it. Use @Res({ passthrough: true }) to set headers or cookies, or drop @Sse() to send the reply yourself.`)
    }
  }
}

/** What the container binds of a scanned controller. */
export function controllerUse (scan: ControllerScan): ControllerUse {
  return { module: scan.module, cls: scan.cls, scope: scan.definition.scope, enhancers: enhancerClasses(scan) }
}

/**
 * The guard, pipe, interceptor and filter classes a controller uses, in the order the container
 * binds them: the controller's own, then each handler's, its parameters' pipes last.
 */
function enhancerClasses (scan: ControllerScan): Type[] {
  // Most lists are empty: no copies of them, and indexed loops (plugin/README.md).
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
