import type { FastifyInstance } from 'fastify'
import { noConstraints, type ControllerPlan, type RoutePlan } from './planner.js'
import { ERR_DUPLICATE_ROUTE } from '../util/errors.js'
import { closingParenthesis } from '../util/paths.js'

// The checks of planned routes against each other and the app's own, before Fastify is touched.

function constraintKey (constraints: Record<string, unknown>): string {
  const keys = Object.keys(constraints)
  if (keys.length === 0) return ''
  return keys.sort().map((key) => `${key}=${String(constraints[key])}`).join(',')
}

// Segments that are plain text or one parameter with no regular expression or static part.
const plainParameters = /^(?:\/(?:[^/:]*|:[^/:().-]+))*\/?$/
const parameterNames = /:[^/:().-]+/g

/**
 * A path as Fastify's router tells routes apart (find-my-way's pattern): parameter names and
 * their regular expressions do not count, so `/:id` and `/:name` are one route, and so are
 * `/:id(^\\d+)` and `/:slug(^[a-z]+)`; static parts beside parameters (`/:file.png`) do.
 */
export function routeShape (path: string): string {
  // Most paths have no parameter, or only whole segments like `/:id`: their shape is quick to tell.
  if (!path.includes(':')) return path
  if (plainParameters.test(path)) return path.replace(parameterNames, ':')
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

// The route of a list that claims `method`; a loop, not a callback made per call.
function claimOf (routes: RoutePlan[], method: string): RoutePlan | undefined {
  for (let i = 0; i < routes.length; i++) if (routes[i].methods.includes(method)) return routes[i]
  return undefined
}

/** Fails on two handlers claiming one method, path and constraints; plans HEAD beside GET. */
export function checkRoutes (plans: ControllerPlan[]): Set<RoutePlan> {
  // The routes claiming each path shape, and each shape with its constraints, in order. Keyed by
  // what a route claims beside its methods, so a route makes at most one key (none for a plain
  // path without constraints), and its methods are compared with those of the few routes of its key.
  const plain = new Map<string, RoutePlan[]>()
  const constrained = new Map<string, RoutePlan[]>()
  // The lists of the keys claimed by more than one route: only there can a HEAD sit beside a GET.
  const shared: RoutePlan[][] = []
  for (let p = 0; p < plans.length; p++) {
    const routes = plans[p].routes
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]
      const shape = routeShape(route.fullUrl)
      const constraints = route.constraints === noConstraints ? '' : constraintKey(route.constraints)
      const claims = constraints === '' ? plain : constrained
      const where = constraints === '' ? shape : `${shape} ${constraints}`
      const others = claims.get(where)
      if (others === undefined) {
        claims.set(where, [route])
        continue
      }
      for (let m = 0; m < route.methods.length; m++) {
        const method = route.methods[m]
        const other = claimOf(others, method)
        if (other !== undefined) {
          const given = constraints !== '' ? ` with constraints {${constraints}}` : ''
          const path = other.fullUrl === route.fullUrl ? route.fullUrl : `${other.fullUrl} and ${route.fullUrl} (one path to Fastify's router: parameter names do not tell routes apart)`
          throw new ERR_DUPLICATE_ROUTE(`${other.owner} and ${route.owner} both handle ${method} ${path}${given}. Give one of them another path, method, host or version.`)
        }
      }
      if (others.length === 1) shared.push(others)
      others.push(route)
    }
  }
  // A GET whose path also has an explicit HEAD handler must not expose Fastify's automatic HEAD.
  const noAutoHead = new Set<RoutePlan>()
  for (let s = 0; s < shared.length; s++) {
    const routes = shared[s]
    const head = claimOf(routes, 'HEAD')
    if (head === undefined) continue
    for (let r = 0; r < routes.length; r++) if (routes[r] !== head && routes[r].methods.includes('GET')) noAutoHead.add(routes[r])
  }
  return noAutoHead
}

/** Fails on a handler that claims a route the app already has, before anything is registered. */
export function checkAppRoutes (app: FastifyInstance, plans: ControllerPlan[]): void {
  // One query object for every lookup: hasRoute() reads it and keeps nothing.
  const query = { method: '', url: '', constraints: noConstraints }
  // Indexed loops: startup code (plugin/README.md).
  for (let p = 0; p < plans.length; p++) {
    const routes = plans[p].routes
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]
      for (let m = 0; m < route.methods.length; m++) {
        const method = route.methods[m]
        query.method = method
        query.url = route.fullUrl
        query.constraints = route.constraints
        if (app.hasRoute(query as Parameters<FastifyInstance['hasRoute']>[0])) {
          throw new ERR_DUPLICATE_ROUTE(`${route.owner} handles ${method} ${route.fullUrl}, which the app already has as a route of its own. Remove one of them, or give the controller another path or prefix.`)
        }
      }
    }
  }
}
