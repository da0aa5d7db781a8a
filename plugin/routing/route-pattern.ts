import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { closingParenthesis } from '../util/paths.js'

// A path pattern of forRoutes()/exclude(), in NestJS's syntax: literal segments, `:param`, and a
// wildcard for the rest (`*`, `*name`, `(.*)`: one or more segments; `{*name}`: zero or more).
type Segment = { kind: 'literal', value: string } | { kind: 'param' } | { kind: 'rest', min: 0 | 1 }

export interface PathPattern {
  /** Matches every path. */
  all: boolean
  segments: Segment[]
}

/** How a pattern matches a route: for every request, for none, or depending on the path. */
export type Verdict = 'yes' | 'maybe' | 'no'

const everything = new Set(['', '*', '(.*)', '*path', '{*path}', '*splat', '{*splat}'])
const restOne = /^(\*|\*\w+|\(\.\*\))$/
const restZero = /^\{\*\w+\}$/

export function parsePattern (path: string, where: string): PathPattern {
  // `cats{/*rest}` (an optional rest after a segment) is `cats/{*rest}`.
  const trimmed = path.replace(/\$$/, '').replace(/\{\/\*(\w+)\}$/, '/{*$1}').replace(/^\/+|\/+$/g, '')
  if (everything.has(trimmed)) return { all: true, segments: [] }
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
  return { all: false, segments }
}

function literal (value: string, where: string): Segment {
  if (/[*(){}?:]/.test(value)) {
    throw new ERR_INVALID_DECLARATION(`${where}: the segment "${value}" is not supported; use literal segments, ":param", and a last wildcard segment ("*" or "{*path}").`)
  }
  return { kind: 'literal', value: value.toLowerCase() }
}

type RouteSegment = 'param' | 'rest' | string

// A Fastify route path: literal segments, parametric ones (`:id`, `:id(^\\d+)`, `:a-:b`), and a
// last one with a wildcard (`*`, `files*`), which may take any number of segments.
function routeSegments (url: string): RouteSegment[] {
  return url.split('/').filter((part) => part !== '').map((part) => part.includes('*') ? 'rest' : part.includes(':') ? 'param' : part.toLowerCase())
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

/**
 * A route's path as the router filled it for one request: its own text with each parameter
 * replaced by the value Fastify matched (fragment, query, duplicate and trailing slashes, case
 * and percent-encoding already dealt with as the app's router options say). A parameter is one
 * segment even when its value holds a `/` (an encoded `%2F`); the wildcard's value is split.
 */
export type RoutedPath = (params: Record<string, string | undefined>) => string[]

// Stands for a `/` inside a parameter's value: no literal of a pattern holds it.
const slashInParam = '\u0000'

/** What the router gave a route's request, by segment; the route's text is parsed once. */
export function routedPath (url: string): RoutedPath {
  const pieces: Array<string | { param: string }> = []
  let text = ''
  for (let i = 0; i < url.length; i++) {
    const char = url[i]
    if (char === '*') {
      pieces.push(text, { param: '*' })
      text = ''
    } else if (char !== ':') {
      text += char
    } else if (url[i + 1] === ':') {
      // `::` is a literal colon.
      text += ':'
      i++
    } else {
      // `:name`, ended by `(` (its regexp), `-`, `.`, `/` or the end, as find-my-way reads it.
      let end = i + 1
      while (end < url.length && !'(-./'.includes(url[end])) end++
      pieces.push(text, { param: url.slice(i + 1, end) })
      text = ''
      i = url[end] === '(' ? closingParenthesis(url, end) : end - 1
    }
  }
  pieces.push(text)
  return (params) => {
    let path = ''
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]
      if (typeof piece === 'string') path += piece
      else {
        const value = params[piece.param] ?? ''
        path += piece.param === '*' ? value : value.replaceAll('/', slashInParam)
      }
    }
    return path.split('/').slice(1)
  }
}

/**
 * Whether a request's routed path (its segments) matches the pattern: literals equal but for
 * case, a `:param` any non-empty segment, a wildcard the rest. A last empty segment is a
 * trailing slash, which every pattern allows.
 */
export function matchPath (pattern: PathPattern, parts: string[]): boolean {
  if (pattern.all) return true
  const { segments } = pattern
  const length = parts.length > 0 && parts[parts.length - 1] === '' ? parts.length - 1 : parts.length
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (segment.kind === 'rest') return segment.min === 0 || length > i
    if (i >= length) return false
    const part = parts[i]
    if (segment.kind === 'literal' ? part.toLowerCase() !== segment.value : part === '') return false
  }
  return length === segments.length
}
