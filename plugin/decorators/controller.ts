import type { ControllerOptions, PrefixTrailingSlash } from '../../types/index.js'
import { kController, kRoutes } from '../util/symbols.js'
import { declaration, declare, ownDeclaration } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { checkVersion } from './version.js'
import { refuseTc39 } from '../util/legacy-decorator.js'
import { hostConstraint } from './host.js'
import { isScope } from './injectable.js'

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'ALL'

export interface RouteDefinition {
  method: RouteMethod
  path: string
  key: string | symbol
}

export interface ControllerDefinition {
  path: string
  host?: ControllerOptions['host']
  version?: ControllerOptions['version']
  prefixTrailingSlash?: PrefixTrailingSlash
  scope: 'DEFAULT' | 'REQUEST'
}

const trailingSlashValues = new Set(['slash', 'no-slash', 'both'])

/** Fails `what` (an option or a decorator argument) when it is not one of Fastify's prefixTrailingSlash values. */
export function checkTrailingSlash (value: unknown, fail: (message: string) => Error, what: string): void {
  if (value !== undefined && !trailingSlashValues.has(value as string)) {
    throw fail(`${what} "prefixTrailingSlash" must be 'slash', 'no-slash' or 'both', as Fastify's route option of that name, given ${describe(value)}.`)
  }
}

const controllerKeys = new Set(['path', 'host', 'version', 'scope', 'prefixTrailingSlash'])

/** Declares a controller: `@Controller()`, `@Controller('cats')`, `@Controller({ path, host, version, scope })`. */
export function Controller (pathOrOptions: string | ControllerOptions = {}): ClassDecorator {
  const options = typeof pathOrOptions === 'string' ? { path: pathOrOptions } : pathOrOptions
  if (options === null || typeof options !== 'object' || Array.isArray(options) || (options.path !== undefined && typeof options.path !== 'string')) {
    throw new ERR_INVALID_DECLARATION(`@Controller() takes a path string or { path, host, version, scope, prefixTrailingSlash }, given ${describe(pathOrOptions)}.`)
  }
  if (options.version !== undefined) checkVersion(options.version, '@Controller() option "version"')
  checkTrailingSlash(options.prefixTrailingSlash, declarationError, '@Controller() option')
  // As NestJS, a transient controller is built once: its routes are its only consumer.
  const scope = options.scope === 'REQUEST' ? 'REQUEST' : 'DEFAULT'
  // `@Controller('cats')`, the common form, has nothing more to check once the class is known.
  const checked = typeof pathOrOptions === 'string'
  return (target: Function, context?: unknown) => {
    refuseTc39('@Controller()', target, context)
    // Checked here, where the class is known, so the message can name it.
    if (!checked) checkControllerOptions(options, target)
    const host = options.host === undefined ? undefined : hostConstraints(options.host, `@Controller() on ${target.name}`)
    const definition: ControllerDefinition = { path: options.path ?? '', host, version: options.version, prefixTrailingSlash: options.prefixTrailingSlash, scope }
    declare(target, kController, definition)
  }
}

const declarationError = (message: string): Error => new ERR_INVALID_DECLARATION(message)

function checkControllerOptions (options: ControllerOptions, target: Function): void {
  for (const key of Object.keys(options)) {
    if (!controllerKeys.has(key)) {
      throw new ERR_INVALID_DECLARATION(`@Controller() on ${target.name} does not know the key "${key}"; use path, host, version, scope or prefixTrailingSlash.`)
    }
  }
  if (options.scope !== undefined && !isScope(options.scope)) {
    throw new ERR_INVALID_DECLARATION(`@Controller() on ${target.name}: scope must be Scope.DEFAULT, Scope.REQUEST or Scope.TRANSIENT, given ${describe(options.scope)}.`)
  }
}

function hostConstraints (host: NonNullable<ControllerOptions['host']>, owner: string): ControllerDefinition['host'] {
  return Array.isArray(host) ? host.map((entry) => hostConstraint(entry, owner)) : hostConstraint(host, owner)
}

export function controllerDefinition (cls: Function): ControllerDefinition | undefined {
  return ownDeclaration(cls, kController)
}

function route (method: RouteMethod) {
  const name = `@${method[0]}${method.slice(1).toLowerCase()}()`
  return (path = ''): MethodDecorator => {
    if (typeof path !== 'string') {
      throw new ERR_INVALID_DECLARATION(`${name} takes a path string, given ${describe(path)}.`)
    }
    return (target: object, key: string | symbol) => {
      refuseTc39(name, target, key)
      const owner = target.constructor
      const route: RouteDefinition = { method, path, key }
      // The class's own list grows in place: copying it on each decorator made a class's routes
      // quadratic. Only its first route decorator copies the inherited list, so a subclass never
      // writes into its base class's.
      const own = ownDeclaration<RouteDefinition[]>(owner, kRoutes)
      if (own !== undefined) own.push(route)
      else declare(owner, kRoutes, [...inheritedRoutes(owner), route])
    }
  }
}

// A class that extends nothing inherits no routes: no walk up the prototype chain for it.
function inheritedRoutes (owner: Function): RouteDefinition[] {
  return Object.getPrototypeOf(owner) === Function.prototype ? [] : (declaration<RouteDefinition[]>(owner, kRoutes) ?? [])
}

export const Get = route('GET')
export const Post = route('POST')
export const Put = route('PUT')
export const Patch = route('PATCH')
export const Delete = route('DELETE')
export const Options = route('OPTIONS')
export const Head = route('HEAD')
export const All = route('ALL')

export function routeDefinitions (cls: Function): RouteDefinition[] {
  return declaration<RouteDefinition[]>(cls, kRoutes) ?? []
}
