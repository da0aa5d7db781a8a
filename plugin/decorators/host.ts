import type { FastifyRequest } from 'fastify'
import { paramDecorator, type ParamDefinition } from './params.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'

export type Host = string | RegExp

// `:name` as in NestJS (path-to-regexp); `:3000` in `localhost:3000` is a port, not a parameter.
const parameter = /:([A-Za-z_$][\w$]*)/g
// Pattern syntax of path-to-regexp this does not take (`*.example.com` would never match).
const unsupported = /[*{}()?+!\\/\s]/

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

// The pattern each generated RegExp was written as, for messages.
const written = new WeakMap<RegExp, string>()
const hostName = (host: Host) => typeof host === 'string' ? `"${host}"` : (written.has(host) ? `"${written.get(host)!}"` : String(host))

/**
 * A NestJS host pattern as Fastify's `host` constraint: `':tenant.example.com'` becomes a
 * case-insensitive RegExp with a named group per parameter, matched against the Host
 * header with or without a port; a string without parameters and a RegExp stay as they are.
 */
export function hostConstraint (host: unknown, owner: string): Host {
  if (host instanceof RegExp) return host
  if (typeof host !== 'string' || host === '') {
    throw new ERR_INVALID_DECLARATION(`${owner}: "host" takes a host name, a pattern such as ":tenant.example.com", a RegExp or a list of them, given ${describe(host)}.`)
  }
  if (unsupported.test(host)) {
    throw new ERR_INVALID_DECLARATION(`${owner}: the host pattern "${host}" uses syntax other than ":name" parameters. Write it with ":name" parameters only, or as a RegExp.`)
  }
  if (!new RegExp(parameter.source).test(host)) return host
  let source = ''
  let last = 0
  const names = new Set<string>()
  for (const match of host.matchAll(parameter)) {
    const literal = host.slice(last, match.index)
    if (literal === '' && last > 0) {
      throw new ERR_INVALID_DECLARATION(`${owner}: the host pattern "${host}" has two parameters with nothing between them; separate them, e.g. ":a.:b".`)
    }
    if (names.has(match[1])) throw new ERR_INVALID_DECLARATION(`${owner}: the host pattern "${host}" names the parameter "${match[1]}" twice.`)
    names.add(match[1])
    source += escape(literal) + `(?<${match[1]}>${valueChars(last === 0 ? '' : literal)}+)`
    last = match.index + match[0].length
  }
  source += escape(host.slice(last))
  const constraint = new RegExp(`^${source}(?::\\d+)?$`, 'i')
  written.set(constraint, host)
  return constraint
}

// A value never holds a port or a slash, nor (as in path-to-regexp) the text between it and
// the parameter before it: in ':a.:b.example.com', `b` has no dot and `a` takes the rest.
function valueChars (before: string): string {
  if (before.length < 2) return `[^:/${escape(before)}]`
  return `(?:(?!${escape(before)})[^:/])`
}

/** The named groups a host can give (a RegExp's named groups; none for a literal host). */
export function hostParamNames (host: Host): string[] {
  if (typeof host === 'string') return []
  // An empty alternative matches '': the result lists every named group, each undefined.
  return Object.keys(new RegExp(`${host.source}|`).exec('')?.groups ?? {})
}

/**
 * The host parameters of a request to a route bound to `hosts`, found as Fastify found the
 * route: a literal host first, then the patterns in their order.
 */
export function hostParamsReader (hosts: Host[]): (request: FastifyRequest) => Record<string, string> {
  const exact = new Set(hosts.filter((host): host is string => typeof host === 'string'))
  // Without g/y a RegExp keeps no state between requests, as in Fastify's own host strategy.
  const patterns = hosts.filter((host): host is RegExp => host instanceof RegExp).map((host) => new RegExp(host.source, host.flags.replace(/[gy]/g, '')))
  return (request) => {
    const host = request.headers.host ?? (request.headers[':authority'] as string | undefined)
    if (host === undefined || exact.has(host)) return {}
    for (const pattern of patterns) {
      const match = pattern.exec(host)
      if (match) return { ...match.groups }
    }
    return {}
  }
}

/** A host parameter by name (`@HostParam('tenant')`), or all of them (`@HostParam()`). */
export function HostParam (name?: string): ParameterDecorator {
  if (name !== undefined && typeof name !== 'string') {
    throw new ERR_INVALID_DECLARATION(`@HostParam() takes a host parameter name, given ${describe(name)}.`)
  }
  return paramDecorator('@HostParam()', { kind: 'host', data: name, pipes: [] })
}

/** Fails on a @HostParam() its route can never fill: no host at all, or no host with that parameter. */
export function checkHostParams (owner: string, params: ParamDefinition[], hosts: Host[]): void {
  // Indexed: startup code (plugin/README.md).
  for (let i = 0; i < params.length; i++) {
    const param = params[i]
    if (param.kind !== 'host') continue
    if (hosts.length === 0) {
      throw new ERR_INVALID_DECLARATION(`${owner}: @HostParam() reads the request's host parameters, but the route is bound to no host. Give its controller a host pattern, e.g. @Controller({ host: ':tenant.example.com' }).`)
    }
    const names = [...new Set(hosts.flatMap(hostParamNames))]
    if (param.data !== undefined && !names.includes(param.data)) {
      const has = names.length === 0 ? 'none has parameters' : `their parameters are ${names.map((name) => `"${name}"`).join(', ')}`
      throw new ERR_INVALID_DECLARATION(`${owner}: @HostParam('${param.data}') names a parameter no host of the route has (hosts ${hosts.map(hostName).join(', ')}; ${has}). Add ":${param.data}" to a host pattern or read another parameter.`)
    }
  }
}
