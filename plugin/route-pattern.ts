import { ERR_INVALID_DECLARATION } from './errors.js'

// A path pattern of forRoutes()/exclude(), in NestJS's syntax: literal segments, `:param`, and a
// wildcard for the rest (`*`, `*name`, `(.*)`: one or more segments; `{*name}`: zero or more).
type Segment = { kind: 'literal', value: string } | { kind: 'param' } | { kind: 'rest', min: 0 | 1 }

export interface PathPattern {
  /** Matches every path. */
  all: boolean
  segments: Segment[]
  regexp: RegExp
}

/** How a pattern matches a route: for every request, for none, or depending on the path. */
export type Verdict = 'yes' | 'maybe' | 'no'

const everything = new Set(['', '*', '(.*)', '*path', '{*path}', '*splat', '{*splat}'])
const restOne = /^(\*|\*\w+|\(\.\*\))$/
const restZero = /^\{\*\w+\}$/

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function parsePattern (path: string, where: string): PathPattern {
  // `cats{/*rest}` (an optional rest after a segment) is `cats/{*rest}`.
  const trimmed = path.replace(/\$$/, '').replace(/\{\/\*(\w+)\}$/, '/{*$1}').replace(/^\/+|\/+$/g, '')
  if (everything.has(trimmed)) return { all: true, segments: [], regexp: /^/ }
  const segments: Segment[] = trimmed.split('/').filter((part) => part !== '').map((part): Segment => {
    if (restOne.test(part)) return { kind: 'rest', min: 1 }
    if (restZero.test(part)) return { kind: 'rest', min: 0 }
    if (/^:\w+$/.test(part)) return { kind: 'param' }
    return literal(part, where)
  })
  segments.forEach((segment, index) => {
    if (segment.kind === 'rest' && index !== segments.length - 1) {
      throw new ERR_INVALID_DECLARATION(`${where}: the wildcard in "${path}" must be its last segment.`)
    }
  })
  let source = ''
  for (const segment of segments) {
    if (segment.kind === 'literal') source += `/${escape(segment.value)}`
    else if (segment.kind === 'param') source += '/[^/]+'
    else source += segment.min === 1 ? '/.+' : '(?:/.*)?'
  }
  return { all: false, segments, regexp: new RegExp(`^${source}/?$`, 'i') }
}

function literal (value: string, where: string): Segment {
  if (/[*(){}?:]/.test(value)) {
    throw new ERR_INVALID_DECLARATION(`${where}: the segment "${value}" is not supported; use literal segments, ":param", and a last wildcard segment ("*" or "{*path}").`)
  }
  return { kind: 'literal', value: value.toLowerCase() }
}

type RouteSegment = 'param' | 'rest' | string

// A Fastify route path: literal segments, parametric ones (`:id`, `:id(^\\d+)`, `:a-:b`), `*`.
function routeSegments (url: string): RouteSegment[] {
  return url.split('/').filter((part) => part !== '').map((part) => part === '*' ? 'rest' : part.includes(':') ? 'param' : part.toLowerCase())
}

const rank: Record<Verdict, number> = { no: 0, maybe: 1, yes: 2 }
const least = (a: Verdict, b: Verdict): Verdict => rank[a] <= rank[b] ? a : b

/** Whether requests to a route (its full Fastify path) match the pattern. */
export function matchRoute (pattern: PathPattern, url: string): Verdict {
  if (pattern.all) return 'yes'
  const route = routeSegments(url)
  const { segments } = pattern
  let verdict: Verdict = 'yes'
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (segment.kind === 'rest') {
      const rest = route.slice(i)
      if (rest.includes('rest')) return least(verdict, 'maybe')
      return rest.length >= segment.min ? verdict : 'no'
    }
    const part = route[i]
    if (part === undefined) return 'no'
    // A route wildcard takes any number of segments: only the request tells.
    if (part === 'rest') return least(verdict, 'maybe')
    if (segment.kind === 'literal') {
      if (part === 'param') verdict = least(verdict, 'maybe')
      else if (part !== segment.value) return 'no'
    }
  }
  if (route.length === segments.length) return verdict
  // `/cats/*` is reached by `/cats/`, which a `cats` pattern takes.
  return route.length === segments.length + 1 && route[segments.length] === 'rest' ? least(verdict, 'maybe') : 'no'
}

/** The decoded path of a request URL, as patterns are matched against it. */
export function requestPath (url: string): string {
  const end = url.indexOf('?')
  const path = end === -1 ? url : url.slice(0, end)
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
