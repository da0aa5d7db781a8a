import type { CanActivate, EnhancerEntry, ExceptionFilter, NestInterceptor, PipeTransform, Type, VersionValue } from '../types/index.js'
import type { ModuleNode } from './scanner.js'
import { controllerDefinition, routeDefinitions, type ControllerDefinition, type RouteMethod } from './controller.js'
import { paramDefinitions, type ParamDefinition } from './params.js'
import { enhancersOf } from './enhancers.js'
import { handlerVersion } from './version.js'
import { routeOptionsOf, type RouteOptionsMetadata } from './route-options.js'
import type { RedirectDefinition } from './http.js'
import { kFilters, kGuards, kHeaders, kHttpCode, kInterceptors, kPipes, kRedirect, kRender } from './symbols.js'
import { ERR_INVALID_DECLARATION } from './errors.js'

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

function enhancerLists (holder: object): EnhancerLists {
  return {
    guards: enhancersOf(kGuards, holder),
    pipes: enhancersOf(kPipes, holder),
    interceptors: enhancersOf(kInterceptors, holder),
    filters: enhancersOf(kFilters, holder)
  }
}

/** What decorators on a handler function itself declare (its routes and parameters are the class's). */
type OwnDeclarations = Pick<HandlerScan, 'enhancers' | 'headers' | 'redirect' | 'render' | 'options'> & { status?: number, version?: VersionValue }

function ownDeclarations (method: object): OwnDeclarations {
  // Most handlers carry none: one look at the handler's keys spares a dozen lookups that would each find nothing.
  if (Reflect.getOwnMetadataKeys(method).length === 0) {
    return { enhancers: { guards: [], pipes: [], interceptors: [], filters: [] }, headers: [], options: { schema: undefined, config: undefined, constraints: undefined } }
  }
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
  return module.controllers.map((cls) => {
    const definition = controllerDefinition(cls)!
    const handlers = routeDefinitions(cls).map((route): HandlerScan => {
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
    })
    return { module, cls, definition, enhancers: enhancerLists(cls), handlers }
  })
}

/**
 * The guard, pipe, interceptor and filter classes a controller uses, in the order the container
 * binds them: the controller's own, then each handler's, its parameters' pipes last.
 */
export function enhancerClasses (scan: ControllerScan): Type[] {
  // Run for every controller at startup, where most lists are empty: no copies of them.
  const classes: Type[] = []
  const add = (entries: unknown[]): void => {
    for (let i = 0; i < entries.length; i++) if (typeof entries[i] === 'function') classes.push(entries[i] as Type)
  }
  const addLists = (lists: EnhancerLists): void => {
    add(lists.guards)
    add(lists.pipes)
    add(lists.interceptors)
    add(lists.filters)
  }
  addLists(scan.enhancers)
  for (const handler of scan.handlers) {
    addLists(handler.enhancers)
    for (const param of handler.params) add(param.pipes)
  }
  return classes
}
