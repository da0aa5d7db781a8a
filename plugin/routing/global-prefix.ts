import type { RouteInfo } from '../../types/middleware.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { httpMethod, RequestMethod } from '../common/request-method.js'
import { matchPath, parsePattern, type PathPattern } from './route-pattern.js'

interface Exclusion {
  pattern: PathPattern
  /** The HTTP method it is limited to; undefined for RequestMethod.ALL (and a plain path). */
  method?: string
}

/** The app's global prefix and the routes served without it, decided once per route at planning. */
export interface GlobalPrefix {
  /** The prefix as given (a path string, '' for none). */
  path: string
  /** The exclusions as NestJS's ApplicationConfig.getGlobalPrefixOptions() lists them. */
  exclude: Array<{ path: string, requestMethod: RequestMethod }>
  /**
   * Whether a route is served without the prefix: `path` is the route's own text below the
   * prefix (module path, controller path and route path, without a URI version segment) and
   * `method` its declared method ('ALL' for @All), as NestJS tests its exclusions.
   */
  excludes: (path: string, method: string) => boolean
}

/** The exclusions of a prefix that has none: planning knows it by identity. */
export const noExclusions = (): boolean => false

const optionNames = { prefix: 'decoratorPlugin option "prefix"', exclude: 'decoratorPlugin option "prefixExclude"' }

/**
 * Reads the `prefix` and `prefixExclude` options: each exclusion is a path pattern (every method)
 * or `{ path, method }` (one RequestMethod, or RequestMethod.ALL).
 */
export function globalPrefix (prefix: unknown, exclude: unknown, names = optionNames): GlobalPrefix {
  if (prefix !== undefined && typeof prefix !== 'string') {
    throw new ERR_INVALID_OPTIONS(`${names.prefix} must be a string, given ${describe(prefix)}.`)
  }
  const path = prefix ?? ''
  if (exclude === undefined) return { path, exclude: [], excludes: noExclusions }
  if (!Array.isArray(exclude)) {
    throw new ERR_INVALID_OPTIONS(`${names.exclude} must be an array of paths or { path, method }, given ${describe(exclude)}.`)
  }
  const exclusions = exclude.map((entry: unknown, index) => exclusion(entry, `${names.exclude}[${index}]`))
  return {
    path,
    exclude: exclusions.map(({ source }) => source),
    excludes: exclusions.length === 0 ? noExclusions : (route, method) => isExcluded(exclusions, route, method)
  }
}

function exclusion (entry: unknown, where: string): Exclusion & { source: { path: string, requestMethod: RequestMethod } } {
  const info = (typeof entry === 'string' ? { path: entry, method: RequestMethod.ALL } : entry) as RouteInfo | null
  const method = info?.method as number | undefined
  if (info === null || typeof info !== 'object' || typeof info.path !== 'string' || typeof method !== 'number' || !(method in RequestMethod || method === -1)) {
    throw new ERR_INVALID_OPTIONS(`${where} is ${describe(entry)}; give a path such as 'health' or { path: 'health', method: RequestMethod.GET }.`)
  }
  return { pattern: pattern(info.path, where), method: httpMethod(method as RequestMethod), source: { path: info.path, requestMethod: method === -1 ? RequestMethod.ALL : method } }
}

// NestJS's syntax, as forRoutes() takes it; only '' (or '/') is the root route rather than every path.
function pattern (path: string, where: string): PathPattern {
  if (path.replace(/^\/+|\/+$/g, '') === '') return { all: false, segments: [] }
  try {
    return parsePattern(path, where)
  } catch (error) {
    throw new ERR_INVALID_OPTIONS((error as Error).message)
  }
}

function isExcluded (exclusions: Exclusion[], path: string, method: string): boolean {
  // The route's own text, by segment: `:id` is a value a `:param` of a pattern takes.
  const parts = path.split('/').slice(1)
  for (let i = 0; i < exclusions.length; i++) {
    const { pattern, method: only } = exclusions[i]
    if ((only === undefined || only === method) && matchPath(pattern, parts)) return true
  }
  return false
}
