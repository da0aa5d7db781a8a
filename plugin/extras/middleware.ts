import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Type, VersioningOptions, VersionValue } from '../../types/index.js'
import type { MiddlewareConfigProxy, MiddlewareConsumer, RouteInfo } from '../../types/middleware.js'
import type { Binding, Container } from '../di/container.js'
import type { ModuleNode } from '../di/scanner.js'
import type { ControllerPlan, RoutePlan } from '../routing/planner.js'
import { joinPath } from '../util/paths.js'
import { controllerDefinition } from '../decorators/controller.js'
import { httpMethod, RequestMethod } from '../common/request-method.js'
import { matchPath, matchRoute, parsePattern, routedPath, type PathPattern, type Verdict } from '../routing/route-pattern.js'
import { asError } from '../util/thrown.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { hasMethod } from '../util/has-method.js'
import { isThenable } from '../util/thenable.js'

type Middleware = (req: any, res: any, next: (error?: unknown) => void) => unknown
type Target = { pattern: PathPattern, method?: string } | { controller: Type }
type Condition = (request: FastifyRequest) => boolean

interface Configuration {
  module: ModuleNode
  middleware: Function[]
  routes: Target[]
  excluded: Target[]
}

interface PathContext {
  prefix: string
  versioning: VersioningOptions | undefined
}

const isClassSyntax = (fn: Function): boolean => /^class[\s{]/.test(Function.prototype.toString.call(fn))

/** What configure(consumer) receives: it records what apply().exclude().forRoutes() say. */
class Consumer implements MiddlewareConsumer {
  readonly configurations: Configuration[] = []
  readonly #module: ModuleNode
  readonly #paths: PathContext

  constructor (module: ModuleNode, paths: PathContext) {
    this.#module = module
    this.#paths = paths
  }

  apply (...entries: Array<Type | Function | Array<Type | Function>>): MiddlewareConfigProxy {
    const where = `${this.#module.name}.configure(): apply()`
    const middleware = entries.flat()
    if (middleware.length === 0) throw new ERR_INVALID_DECLARATION(`${where} needs at least one middleware class or function.`)
    middleware.forEach((item, index) => {
      if (typeof item !== 'function') {
        throw new ERR_INVALID_DECLARATION(`${where} entry ${index} is ${describe(item)}; give a class with use(req, res, next) or a function (req, res, next).`)
      }
      if (!hasMethod(item, 'use') && isClassSyntax(item)) {
        throw new ERR_INVALID_DECLARATION(`${where} entry ${index} is the class ${item.name}, which has no use() method. Implement NestMiddleware: use(req, res, next).`)
      }
    })
    let excluded: Target[] = []
    const proxy: MiddlewareConfigProxy = {
      exclude: (...routes) => {
        excluded = routes.flatMap((route, index) => this.#targets(route, `${this.#module.name}.configure(): exclude() entry ${index}`, false))
        return proxy
      },
      forRoutes: (...routes) => {
        if (routes.length === 0) throw new ERR_INVALID_DECLARATION(`${this.#module.name}.configure(): forRoutes() needs at least one path, controller or { path, method }.`)
        const targets = routes.flatMap((route, index) => this.#targets(route, `${this.#module.name}.configure(): forRoutes() entry ${index}`, true))
        this.configurations.push({ module: this.#module, middleware, routes: targets, excluded })
        return this
      }
    }
    return proxy
  }

  #targets (route: unknown, where: string, controllers: boolean): Target[] {
    if (typeof route === 'string') return this.#patterns(route, undefined, where).map((pattern) => ({ pattern }))
    if (typeof route === 'function' && controllers) {
      if (controllerDefinition(route) === undefined) throw new ERR_INVALID_DECLARATION(`${where} is the class ${route.name}, which is not a @Controller(); give a controller, a path or { path, method }.`)
      return [{ controller: route as Type }]
    }
    const info = route as RouteInfo
    if (typeof info?.path !== 'string' || !(info.method in RequestMethod || (info.method as number) === -1)) {
      const kinds = controllers ? 'a path, a controller or { path, method: RequestMethod.GET }' : 'a path or { path, method: RequestMethod.GET }'
      throw new ERR_INVALID_DECLARATION(`${where} is ${describe(route)}; give ${kinds}.`)
    }
    const method = httpMethod(info.method)
    return this.#patterns(info.path, info.version, where).map((pattern) => ({ pattern, method }))
  }

  // Patterns are relative to the app's prefix (and, under URI versioning, a version's segment), as
  // in NestJS: a path given without a version stands for the routes without one and, when
  // versioning has a defaultVersion, for those served under it.
  #patterns (path: string, version: VersionValue | undefined, where: string): PathPattern[] {
    const { prefix, versioning } = this.#paths
    const all = parsePattern(path, where).all
    const uri = versioning?.type === 'uri' ? versioning : undefined
    const versions: unknown[] = uri === undefined || all ? [undefined] : version === undefined ? [undefined, ...[uri.defaultVersion ?? []].flat()] : [version]
    return versions.map((one) => {
      const segment = uri !== undefined && typeof one === 'string' ? `${uri.prefix === false ? '' : uri.prefix ?? 'v'}${one}` : ''
      return parsePattern(all && prefix === '' && segment === '' ? path : joinPath(prefix, segment, all ? '{*path}' : path), where)
    })
  }
}

interface Step {
  name: string
  when?: Condition
  get: (request: FastifyRequest) => Middleware | Promise<Middleware>
}

/**
 * Calls configure(consumer) on every module instance that has it (global modules first, then
 * from the root down, as NestJS orders them), builds the middleware classes through DI in the
 * module that applies them, and adds one onRequest hook to each route some middleware matches.
 * Routes no middleware matches get nothing.
 */
export async function applyMiddleware (container: Container, modules: ModuleNode[], plans: ControllerPlan[], paths: PathContext): Promise<void> {
  const order = [...modules].sort((a, b) => Number(b.global) - Number(a.global) || (a.global ? 0 : a.distance - b.distance) || a.order - b.order)
  const configurations: Configuration[] = []
  for (const module of order) {
    const instance = container.moduleClass(module).instance as { configure?: (consumer: MiddlewareConsumer) => unknown } | undefined
    if (typeof instance?.configure !== 'function') continue
    const consumer = new Consumer(module, paths)
    await instance.configure(consumer)
    configurations.push(...consumer.configurations)
  }
  if (configurations.length === 0) return

  // Classes become bindings of their module; the new ones are checked and built like the rest.
  const bindings = new Map<Configuration, Array<Binding | Middleware>>(configurations.map((configuration) => [
    configuration,
    configuration.middleware.map((item) => hasMethod(item, 'use') ? container.lateEnhancer(configuration.module, item as Type) : item as Middleware)
  ]))
  container.finalize()
  await container.instantiate()

  const routes = plans.flatMap((plan) => plan.routes.map((route) => ({ route, cls: plan.cls })))
  for (const { route, cls } of routes) {
    const steps: Step[] = []
    for (const configuration of configurations) {
      const when = applies(configuration, route, cls, paths.prefix)
      if (when === false) continue
      for (const item of bindings.get(configuration)!) {
        steps.push({ name: typeof item === 'function' ? item.name || 'anonymous middleware' : item.definition.useClass?.name ?? String(item.token), when: when === true ? undefined : when, get: await getter(item, container) })
      }
    }
    if (steps.length > 0) route.hooks.onRequest.push(middlewareHook(steps))
  }
}

// Once: the function, or the class instance's use(); request-scoped ones per request.
async function getter (item: Binding | Middleware, container: Container): Promise<Step['get']> {
  if (typeof item === 'function') return () => item
  const bound = (instance: { use: Middleware }): Middleware => instance.use.bind(instance)
  if (item.perRequest) return (request) => Promise.resolve(container.resolveIn(item, request)).then((instance) => bound(instance as { use: Middleware }))
  const instance = item.transient ? await container.transientInstance(item) : item.instance
  const use = bound(instance as { use: Middleware })
  return () => use
}

/** Whether a configuration's middleware runs on a route: always, never, or as the request decides. */
function applies (configuration: Configuration, route: RoutePlan, cls: Type, prefix: string): boolean | Condition {
  const included = combine(configuration.routes.map((target) => verdict(target, route, cls, prefix)))
  if (included === false) return false
  const excluded = combine(configuration.excluded.map((target) => verdict(target, route, cls, prefix)))
  if (excluded === true) return false
  if (excluded === false) return included
  return included === true ? (request) => !excluded(request) : (request) => included(request) && !excluded(request)
}

/**
 * The URL a route is matched on: patterns are relative to the global prefix, and a route served
 * without it (the prefix's `exclude`) is matched as if below it, as NestJS mounts such a route's
 * middleware outside the prefix.
 */
function matchedUrl (route: RoutePlan, prefix: string): string {
  return route.unprefixed === true ? joinPath(prefix) + route.fullUrl : route.fullUrl
}

function verdict (target: Target, route: RoutePlan, cls: Type, prefix: string): boolean | Condition {
  if ('controller' in target) return target.controller === cls
  const { pattern, method } = target
  const methods = method === undefined ? undefined : requestMethods(method, route.methods)
  const byMethod = methods === undefined ? 'yes' : methodVerdict(methods, route.methods)
  const url = matchedUrl(route, prefix)
  const byPath = matchRoute(pattern, url)
  if (byMethod === 'no' || byPath === 'no') return false
  if (byMethod === 'yes' && byPath === 'yes') return true
  const sameMethod = (request: FastifyRequest): boolean => methods!.includes(request.method)
  if (byPath === 'yes') return sameMethod
  // Judged by what the router matched, never by the raw URL: every spelling Fastify routes here
  // (`#x`, `//`, `%2F`, case, a trailing slash) is judged by the path its handler answers.
  const routed = routedPath(url)
  const samePath = (request: FastifyRequest): boolean => matchPath(pattern, routed(request.params as Record<string, string>))
  return byMethod === 'yes' ? samePath : (request) => sameMethod(request) && samePath(request)
}

/**
 * The request methods a target's method stands for on a route: a HEAD request to a GET route
 * runs the GET handler (Fastify's HEAD route), so it counts as GET unless the route declares HEAD.
 */
function requestMethods (method: string, declared: string[]): string[] {
  return method === 'GET' && !declared.includes('HEAD') ? ['GET', 'HEAD'] : [method]
}

function methodVerdict (methods: string[], declared: string[]): Verdict {
  const answered = declared.includes('GET') && !declared.includes('HEAD') ? [...declared, 'HEAD'] : declared
  if (!methods.some((method) => answered.includes(method))) return 'no'
  return answered.every((method) => methods.includes(method)) ? 'yes' : 'maybe'
}

// Any of the verdicts: true if one always holds, false if none can, else a test per request.
function combine (verdicts: Array<boolean | Condition>): boolean | Condition {
  if (verdicts.includes(true)) return true
  const conditions = verdicts.filter((item): item is Condition => typeof item === 'function')
  if (conditions.length === 0) return false
  return conditions.length === 1 ? conditions[0] : (request) => conditions.some((condition) => condition(request))
}

/**
 * One onRequest hook running a route's middleware in order, with what NestJS on Fastify gives
 * them (through @fastify/middie): Node's request and response, augmented as middie does, and
 * `next`. A middleware that answers (res.end()) ends the request there; an error it throws,
 * rejects with or passes to next(err) goes to the route's exception filters.
 */
function middlewareHook (steps: Step[]) {
  return function fdpMiddleware (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    const req = request.raw as FastifyRequest['raw'] & Record<string, unknown>
    const res = reply.raw as FastifyReply['raw'] & Record<string, unknown>
    req.originalUrl ??= req.url
    req.id = request.id
    req.hostname = request.hostname
    req.ip = request.ip
    req.ips = request.ips
    req.log = res.log = request.log
    let finished = false
    const finish = (error?: unknown): void => {
      if (finished) return
      finished = true
      done(error === undefined ? undefined : asError(error))
    }
    const run = (index: number): void => {
      while (index < steps.length && steps[index].when?.(request) === false) index++
      if (index === steps.length) return finish()
      const step = steps[index]
      let called = false
      const next = (error?: unknown): void => {
        if (called || finished) return
        called = true
        if (error !== undefined && error !== null) return finish(error)
        // Answered by the middleware: nothing else runs, as with middie.
        if (res.writableEnded) return
        run(index + 1)
      }
      const failed = (error: unknown): void => {
        if (!called && !finished) return finish(error)
        request.log.error({ err: asError(error) }, `Middleware ${step.name} failed after calling next()`)
      }
      try {
        const middleware = step.get(request)
        const result = isThenable(middleware)
          ? (middleware as Promise<Middleware>).then((use) => use(req, res, next))
          : (middleware as Middleware)(req, res, next)
        if (isThenable(result)) result.then(undefined, failed)
      } catch (error) {
        failed(error)
      }
    }
    run(0)
  }
}
