import type { InjectionToken, ModuleMetadata } from '../../types/index.js'
import type { ParamDefinition } from '../decorators/params.js'
import type { RouteDefinition, RouteMethod } from '../decorators/controller.js'
import type { RedirectDefinition } from '../decorators/http.js'
import type { PropertyInjection } from '../decorators/injectable.js'
import {
  kCatch, kController, kFilters, kGlobal, kGuards, kHeaders, kHttpCode, kInjectable, kInjectProperties, kInjectTokens, kInterceptors,
  kModule, kOptional, kParams, kPipes, kRedirect, kRender, kRoutes, kSse, kVersion
} from '../util/symbols.js'
import { ERR_NEST_UNSUPPORTED } from '../util/errors.js'
import { defineMetadata, getMetadata, getOwnMetadata, hasOwnMetadata } from '../util/metadata.js'
import { declaration, declare, declareMember, ownDeclaration, ownMemberDeclaration } from '../util/metadata.js'
import { describe } from '../util/describe.js'
import { VERSION_NEUTRAL } from '../util/tokens.js'
import { hostConstraint } from '../decorators/host.js'
import { sseDefinition } from '../decorators/sse.js'
import { hasNestKeys, isNestNeutral, moduleKeys, nestKeys, paramTypes, requestMethods, routeMethods } from './keys.js'
import { nestScopes } from '../decorators/injectable.js'

// Translates what @nestjs/common's decorators wrote on a class into the plugin's own metadata,
// once per class, while the application is scanned; nothing of it is read per request.

// A class whose NestJS metadata was read, on the class itself (a subclass is read on its own).
const kRead = Symbol.for('fastify-decorator-plugin.nestRead')

// NestJS's metadata, under its string keys; the plugin's own goes through metadata.ts.
export const own = (key: string, target: object, property?: string | symbol): any => Reflect.getOwnMetadata(key, target, property as string)
const inherited = (key: string, target: object, property?: string | symbol): any => Reflect.getMetadata(key, target, property as string)

/** Whether `cls` carries @nestjs/common's @Module() (or @Global()) metadata. */
export function isNestModule (cls: Function): boolean {
  return [...moduleKeys, nestKeys.global].some((key) => Reflect.hasMetadata(key, cls))
}

/** Whether `cls` carries no metadata at all: what NestJS's `@Module({})` leaves. */
export function isBare (cls: Function): boolean {
  return Reflect.getMetadataKeys(cls).length === 0
}

// Marks a class (or a handler) as read, once everything about it was read without error: a
// declaration that failed registration fails the next one too, and nothing is written twice.
// What gave nothing to write is not marked: reading it again gives nothing again.
function mark (target: object, key: symbol): void {
  Object.defineProperty(target, key, { value: true })
}

/**
 * Whether a target or one up its prototype chain has one of NestJS's keys (what
 * Reflect.getMetadataKeys would list, without building the merged list).
 */
export function nestKeysUp (target: object, property?: string | symbol): boolean {
  for (let current: object | null = target; current !== null && current !== Function.prototype && current !== Object.prototype; current = Object.getPrototypeOf(current)) {
    if (hasNestKeys(Reflect.getOwnMetadataKeys(current, property as string))) return true
  }
  return false
}

// What the keys of a class and of its base classes tell (see classMetadata).
export const nestClass = 1
export const injectingClass = 2

// The keys of what a class injects: constructor parameter types or tokens, injected properties.
const injectionKeys = new Set<unknown>(['design:paramtypes', kInjectTokens, kInjectProperties])

/**
 * One look at the keys of a class and its base classes: whether one has NestJS's metadata
 * (`nestClass`, which also counts as injecting), else whether one declares what the class
 * injects (`injectingClass`), else 0.
 */
export function classMetadata (cls: Function): number {
  let found = 0
  for (let current: object | null = cls; current !== null && current !== Function.prototype && current !== Object.prototype; current = Object.getPrototypeOf(current)) {
    const keys = Reflect.getOwnMetadataKeys(current)
    if (hasNestKeys(keys)) return nestClass | injectingClass
    for (let i = 0; found === 0 && i < keys.length; i++) if (injectionKeys.has(keys[i])) found = injectingClass
  }
  return found
}

/** Writes collected while reading, applied once the whole class has been read without error. */
type Writes = Array<[key: symbol, value: unknown, target: object, property?: string | symbol]>

// Controllers, their routes and parameters are the plugin's declarations (declarations.ts), the rest its metadata.
const declarationKeys = new Set<symbol>([kController, kRoutes, kParams])

function apply (writes: Writes): void {
  for (const [key, value, target, property] of writes) {
    if (!declarationKeys.has(key)) defineMetadata(key, value, target, property)
    else if (property === undefined) declare(target, key, value)
    else declareMember(target, key, property, value)
  }
}

function scopeName (value: unknown, where: string): 'DEFAULT' | 'TRANSIENT' | 'REQUEST' | undefined {
  if (value === undefined) return undefined
  const scope = nestScopes[value as number]
  if (scope === undefined) throw new ERR_NEST_UNSUPPORTED(`${where} has the scope ${describe(value)}, which is not one of NestJS's Scope.DEFAULT, Scope.REQUEST, Scope.TRANSIENT.`)
  return scope
}

// NestJS's host patterns (':tenant.example.com') as the plugin's @Controller() makes them.
function hosts (value: unknown, owner: string): unknown {
  if (value === undefined) return undefined
  return Array.isArray(value) ? value.map((host) => hostConstraint(host, owner)) : hostConstraint(value, owner)
}

function version (value: unknown): unknown {
  if (isNestNeutral(value)) return VERSION_NEUTRAL
  return Array.isArray(value) ? value.map((item) => isNestNeutral(item) ? VERSION_NEUTRAL : item) : value
}

/** A NestJS provider object with its numeric scope named as the plugin names it. */
function provider (entry: unknown, where: string): unknown {
  if (entry === null || typeof entry !== 'object' || !('scope' in entry) || typeof entry.scope !== 'number') return entry
  return { ...entry, scope: scopeName(entry.scope, where) }
}

/** @Module() and @Global() as the plugin's module metadata. */
export function readModule (cls: Function, bare = false): void {
  if (hasOwnMetadata(kModule, cls) || (!bare && !isNestModule(cls))) return
  const metadata: ModuleMetadata = {}
  // NestJS reads them through the prototype chain: a module class inherits its base's lists.
  const list = (key: string): unknown[] | undefined => inherited(key, cls)
  const imports = list(nestKeys.imports)
  const providers = list(nestKeys.providers)
  const controllers = list(nestKeys.controllers)
  const exported = list(nestKeys.exports)
  if (imports) metadata.imports = imports as ModuleMetadata['imports']
  if (providers) metadata.providers = providers.map((entry, i) => provider(entry, `${cls.name}'s providers[${i}]`)) as ModuleMetadata['providers']
  if (controllers) metadata.controllers = controllers as ModuleMetadata['controllers']
  // NestJS exports a provider object by its token.
  if (exported) metadata.exports = exported.map((entry) => entry !== null && typeof entry === 'object' && 'provide' in entry ? entry.provide : entry) as ModuleMetadata['exports']
  defineMetadata(kModule, metadata, cls)
  if (inherited(nestKeys.global, cls) === true) defineMetadata(kGlobal, true, cls)
}

/**
 * What a class built through DI needs: its scope, the tokens of its constructor parameters
 * (`@Inject()`), which are optional, and the exception types of a filter (`@Catch()`).
 * Classes up the prototype chain are read too: a subclass may run its base's constructor.
 */
export function readInjectable (cls: Function): void {
  for (let current = cls; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (Object.hasOwn(current, kRead)) continue
    const writes = readClass(current)
    if (writes.length === 0) continue
    apply(writes)
    mark(current, kRead)
  }
}

// NestJS's injected properties (@Inject() and @Optional() on a property) as the plugin's.
function readProperties (cls: Function, writes: Writes): void {
  const properties = own(nestKeys.properties, cls) as Array<{ key: string | symbol, type: unknown }> | undefined
  if (properties === undefined || properties.length === 0) return
  const optional = new Set<unknown>(own(nestKeys.optionalProperties, cls) ?? [])
  const ours = new Map<string | symbol, PropertyInjection>(getOwnMetadata<Map<string | symbol, PropertyInjection>>(kInjectProperties, cls) ?? getMetadata<Map<string | symbol, PropertyInjection>>(kInjectProperties, cls) ?? [])
  for (const { key, type } of properties) {
    // The plugin's own @Inject() on the same property wins.
    if (ours.get(key)?.inject === true) continue
    ours.set(key, { key, token: type as PropertyInjection['token'], inject: true, optional: optional.has(key) })
  }
  writes.push([kInjectProperties, ours, cls])
}

function readClass (cls: Function): Writes {
  const writes: Writes = []
  // Everything read here is the class's own.
  if (!hasNestKeys(Reflect.getOwnMetadataKeys(cls))) return writes
  readProperties(cls, writes)
  const options = own(nestKeys.scope, cls) as { scope?: number } | undefined
  if ((own(nestKeys.injectable, cls) === true || options !== undefined) && !hasOwnMetadata(kInjectable, cls)) {
    const scope = scopeName(options?.scope, cls.name)
    writes.push([kInjectable, scope === undefined ? {} : { scope }, cls])
  }
  const params = own(nestKeys.selfParams, cls) as Array<{ index: number, param: unknown }> | undefined
  if (params !== undefined) {
    const tokens = new Map<number, InjectionToken>(getOwnMetadata<Map<number, InjectionToken>>(kInjectTokens, cls) ?? [])
    // A token of the plugin's own @Inject() on the same parameter wins.
    for (const { index, param } of params) if (!tokens.has(index) && param !== undefined) tokens.set(index, param as InjectionToken)
    writes.push([kInjectTokens, tokens, cls])
  }
  const optional = own(nestKeys.optionalParams, cls) as number[] | undefined
  if (optional !== undefined) writes.push([kOptional, new Set([...(getOwnMetadata<Set<number>>(kOptional, cls) ?? []), ...optional]), cls])
  const caught = own(nestKeys.catch, cls)
  if (caught !== undefined && !hasOwnMetadata(kCatch, cls)) writes.push([kCatch, caught, cls])
  return writes
}

const enhancerKeys = [[nestKeys.guards, kGuards], [nestKeys.pipes, kPipes], [nestKeys.interceptors, kInterceptors], [nestKeys.filters, kFilters]] as const

// @UseGuards() and the like, after the plugin's own on the same holder.
function readEnhancers (holder: object, read: (key: string, target: object) => unknown, writes: Writes): void {
  for (const [nestKey, key] of enhancerKeys) {
    const entries = read(nestKey, holder) as unknown[] | undefined
    if (entries !== undefined && entries.length > 0) writes.push([key, [...(getOwnMetadata<unknown[]>(key, holder) ?? []), ...entries], holder])
  }
}

/**
 * @Controller() as the plugin's metadata; then, on any controller (the plugin's own included),
 * its route handlers as @nestjs/common decorated them: routes, parameters, enhancers, responses.
 */
export function readController (cls: Function, ofNest = nestKeysUp(cls)): void {
  if (routesRead(cls)) return
  // Most controllers carry nothing of NestJS's: one look at each method, without building the
  // lists and maps below, tells so (they are built only when something is there to read).
  if (!ofNest && !nestOnMethods(cls)) return
  const writes: Writes = []
  if (ofNest && inherited(nestKeys.controller, cls) === true && ownDeclaration(cls, kController) === undefined) {
    const paths = [inherited(nestKeys.path, cls)].flat()
    if (paths.length > 1) {
      throw new ERR_NEST_UNSUPPORTED(`@Controller() on ${cls.name} gives several paths (${paths.map(String).join(', ')}); the plugin takes one path per controller. Declare one controller class per path (a subclass each).`)
    }
    const options = inherited(nestKeys.scope, cls) as { scope?: number } | undefined
    writes.push([kController, {
      path: paths[0] ?? '',
      host: hosts(inherited(nestKeys.host, cls), `@Controller() on ${cls.name}`),
      version: version(inherited(nestKeys.version, cls)),
      // As NestJS, a transient controller is built once: its routes are its only consumer.
      scope: scopeName(options?.scope, cls.name) === 'REQUEST' ? 'REQUEST' : 'DEFAULT'
    }, cls])
  }
  // NestJS reads a controller's enhancers through the prototype chain.
  if (ofNest) readEnhancers(cls, inherited, writes)
  const routes: RouteDefinition[] = [...(declaration<RouteDefinition[]>(cls, kRoutes) ?? [])]
  const declared = new Set(routes.map((route) => route.key))
  const found = methods(cls)
  for (const [key, { handler }] of found) {
    if (declared.has(key) || own(nestKeys.method, handler) === undefined) continue
    const method = requestMethods[own(nestKeys.method, handler) as number]
    if (!routeMethods.has(method)) {
      throw new ERR_NEST_UNSUPPORTED(`${cls.name}.${String(key)} is a ${method} route (@${method[0]}${method.slice(1).toLowerCase()}() of @nestjs/common), a method the plugin has no route decorator for. Use @All() and read request.method, or register the route on Fastify directly.`)
    }
    for (const path of [own(nestKeys.path, handler)].flat()) routes.push({ method: method as RouteMethod, path: path as string, key })
  }
  if (routes.length > declared.size) writes.push([kRoutes, routes, cls])
  // A handler is read once, for the class that declares it and its subclasses alike.
  const read = new Set<Function>()
  for (const key of new Set(routes.map((route) => route.key))) {
    const { handler, owner } = found.get(key) ?? {}
    if (handler === undefined || routesRead(handler)) continue
    const before = writes.length
    readHandler(owner!, key, handler, `${cls.name}.${String(key)}`, writes)
    if (writes.length > before) read.add(handler)
  }
  if (writes.length === 0) return
  apply(writes)
  for (const handler of read) mark(handler, kRoutesRead)
  mark(cls, kRoutesRead)
}

// A controller, or a handler function, whose routes were read (a base class's handler once for all).
const kRoutesRead = Symbol.for('fastify-decorator-plugin.nestRoutesRead')

/** Whether readController() has read the class (a NestJS controller is read before the scan). */
export function routesRead (cls: Function): boolean {
  return Object.hasOwn(cls, kRoutesRead)
}

/**
 * Whether a method of the class's instances, own or inherited, carries NestJS's metadata: of its
 * method decorators on the function, of its parameter decorators on the class under its name.
 */
function nestOnMethods (cls: Function): boolean {
  for (let proto = cls.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const keys = Reflect.ownKeys(proto)
    let owner: unknown
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]
      if (key === 'constructor') continue
      // Descriptors, so no getter runs (a handler an accessor gives is looked at by the scan).
      const value = Object.getOwnPropertyDescriptor(proto, key)?.value
      if (typeof value !== 'function') continue
      if (hasNestKeys(Reflect.getOwnMetadataKeys(value))) return true
      // Parameters are read on the class the prototype names (a prototype naming none: read it all).
      owner ??= proto.constructor
      if (typeof owner !== 'function' || nestKeysUp(owner, key)) return true
    }
  }
  return false
}

/** Own and inherited methods of a class's instances by name, the nearest definition, with the prototype that has it. */
function methods (cls: Function): Map<string | symbol, { handler: Function, owner: object }> {
  const found = new Map<string | symbol, { handler: Function, owner: object }>()
  for (let proto = cls.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      // Descriptors, so no getter runs.
      const value = Object.getOwnPropertyDescriptor(proto, key)?.value
      if (key !== 'constructor' && typeof value === 'function' && !found.has(key)) found.set(key, { handler: value, owner: proto })
    }
  }
  return found
}

function readHandler (owner: object, key: string | symbol, handler: Function, name: string, writes: Writes): void {
  if (hasNestKeys(Reflect.getOwnMetadataKeys(handler))) readResponse(handler, name, writes)
  // A prototype naming no class (a null-prototype mixin) has no class for parameter decorators to write on.
  const params = typeof owner.constructor === 'function' ? readParams(owner.constructor, key, name) : []
  if (params.length > 0) writes.push([kParams, [...(ownMemberDeclaration<ParamDefinition[]>(owner, kParams, key) ?? []), ...params], owner, key])
}

// What NestJS's decorators wrote on the handler function itself: its response and enhancers.
function readResponse (handler: Function, name: string, writes: Writes): void {
  if (own(nestKeys.sse, handler) === true && getOwnMetadata(kSse, handler) === undefined) {
    const options = own(nestKeys.sseOptions, handler) as { maxPendingDataLength?: unknown } | undefined
    writes.push([kSse, sseDefinition(options?.maxPendingDataLength, `${name}: @Sse()`), handler])
  }
  const code = own(nestKeys.httpCode, handler)
  if (code !== undefined && getOwnMetadata(kHttpCode, handler) === undefined) writes.push([kHttpCode, code, handler])
  const headers = own(nestKeys.headers, handler) as Array<{ name: string, value: unknown }> | undefined
  if (headers !== undefined) {
    for (const header of headers) {
      if (typeof header.value === 'function') {
        throw new ERR_NEST_UNSUPPORTED(`${name}: @Header('${header.name}') has a function for its value, which the plugin does not call per request. Give a string, or set the header in the handler with @Res({ passthrough: true }).`)
      }
    }
    // Applied in NestJS's order (the decorator nearest the method first), after the plugin's own.
    writes.push([kHeaders, [...(getOwnMetadata<Array<[string, string]>>(kHeaders, handler) ?? []), ...headers.map((header) => [header.name, String(header.value)])], handler])
  }
  const redirect = own(nestKeys.redirect, handler) as Partial<RedirectDefinition> | undefined
  if (redirect !== undefined && getOwnMetadata(kRedirect, handler) === undefined) writes.push([kRedirect, { url: redirect.url ?? '', statusCode: redirect.statusCode ?? 302 }, handler])
  const render = own(nestKeys.render, handler)
  if (render !== undefined && getOwnMetadata(kRender, handler) === undefined) writes.push([kRender, render, handler])
  const handlerVersion = own(nestKeys.version, handler)
  if (handlerVersion !== undefined && getOwnMetadata(kVersion, handler) === undefined) writes.push([kVersion, version(handlerVersion), handler])
  readEnhancers(handler, own, writes)
}

type NestArg = { index: number, data?: unknown, pipes?: unknown[], factory?: ParamDefinition['factory'], schema?: unknown }

function readParams (cls: Function, key: string | symbol, name: string): ParamDefinition[] {
  if (!nestKeysUp(cls, key)) return []
  const args = (inherited(nestKeys.routeArgs, cls, key) ?? {}) as Record<string, NestArg>
  const passthrough = inherited(nestKeys.passthrough, cls, key) === true
  return Object.entries(args).map(([argKey, arg]) => {
    const where = `${name}: parameter ${arg.index}`
    if (arg.schema !== undefined) {
      throw new ERR_NEST_UNSUPPORTED(`${where} gives a Standard Schema, which the plugin does not validate. Validate with a pipe (ValidationPipe and a DTO class) or a @RouteSchema() JSON schema.`)
    }
    const pipes = (arg.pipes ?? []).filter(Boolean) as ParamDefinition['pipes']
    if (argKey.includes(nestKeys.customArg)) return { index: arg.index, kind: 'custom', data: arg.data as string, pipes, factory: arg.factory }
    const type = paramTypes[Number(argKey.slice(0, argKey.indexOf(':')))]
    if (type === undefined || 'unsupported' in type) {
      const decorator = type === undefined ? `a parameter decorator of kind ${argKey.slice(0, argKey.indexOf(':'))}` : type.unsupported
      throw new ERR_NEST_UNSUPPORTED(`${where} takes ${decorator}, which the plugin does not provide: ${type === undefined ? 'use a decorator of fastify-decorator-plugin or createParamDecorator()' : type.fix}.`)
    }
    const data = type.kind === 'headers' && typeof arg.data === 'string' ? arg.data.toLowerCase() : arg.data as string | undefined
    return { index: arg.index, kind: type.kind, data, pipes, passthrough: type.kind === 'res' ? passthrough : undefined }
  })
}
