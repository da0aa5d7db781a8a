import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import type { VersioningOptions, VersionValue } from '../../types/index.js'
import { VERSION_NEUTRAL } from '../util/tokens.js'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { asError } from '../util/thrown.js'
import { validVersion } from '../decorators/version.js'
import { checkSharedVersion, installSharedVersion } from './shared-version.js'

type Version = string | symbol
/** Routing runs before Fastify builds its request: strategies see Node's request. */
type RawRequest = IncomingMessage
type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0]

/** One registration of a handler: a URL segment (uri type) or a constraint value. */
export interface VersionVariant {
  segment: string
  constraint?: { name: string, value: string }
  /** The version it serves, for the startup log; none for a neutral or unversioned one. */
  version?: string
}

export interface Versioning {
  /** How a handler with these versions (undefined: none declared) is registered. */
  variants (versions: VersionValue | undefined): VersionVariant[]
  /** Fails, before anything is registered, when the app's own constraints make versions unreachable. */
  check (app: FastifyInstance): void
  /** Adds the plugin's constraint strategy to the router once, if a route needs it. */
  install (app: FastifyInstance): void
}

const unversioned: VersionVariant[] = [{ segment: '' }]
const types = ['header', 'uri', 'media-type', 'custom']
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const kExtractorError = Symbol('fdp.extractorError')
// Derived when the extractor threw: routes to a handler of the path, which raises the error.
const kExtractorFailed = Symbol('fdp.extractorFailed')

// Strategy names are identifiers (find-my-way compiles them into code), named after what they read
// so printRoutes() says it (`apiVersionHeaderXApiVersion: "1"`): one per configuration, so
// registrations that agree share a strategy and those that differ never collide.
const strategyNames = new Map<string, string>()
const takenNames = new Set<string>()
const extractorIds = new WeakMap<Function, number>()
let extractors = 0

function strategyName (key: string, type: string, source: string): string {
  let name = strategyNames.get(key)
  if (name !== undefined) return name
  const words = (text: string): string => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1).toLowerCase()).join('')
  const base = `apiVersion${words(type)}${type === 'header' ? words(source) : ''}`
  name = base
  for (let n = 2; takenNames.has(name); n++) name = `${base}${n}`
  strategyNames.set(key, name)
  takenNames.add(name)
  return name
}

function toList (value: VersionValue | undefined): Version[] | undefined {
  if (value === undefined) return undefined
  return Array.isArray(value) ? [...new Set(value)] : [value]
}

function validateVersioning (options: unknown): asserts options is VersioningOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "versioning" must be an object like { type: 'header' }, given ${describe(options)}.`)
  }
  const config = options as Record<string, unknown>
  if (!types.includes(config.type as string)) {
    throw new ERR_INVALID_OPTIONS(`versioning.type must be one of ${types.join(', ')}, given ${describe(config.type)}.`)
  }
  if (config.header !== undefined && (typeof config.header !== 'string' || !headerName.test(config.header))) {
    throw new ERR_INVALID_OPTIONS(`versioning.header must be a non-empty header name such as 'X-API-Version', given ${describe(config.header)}.`)
  }
  if (config.prefix !== undefined && config.prefix !== false && (typeof config.prefix !== 'string' || /[/?#]/.test(config.prefix))) {
    throw new ERR_INVALID_OPTIONS(`versioning.prefix must be a string or false (a segment prefix such as 'v', no slashes), given ${describe(config.prefix)}.`)
  }
  if (config.key !== undefined && (typeof config.key !== 'string' || config.key === '')) {
    throw new ERR_INVALID_OPTIONS(`versioning.key must be a non-empty string such as 'v=', given ${describe(config.key)}.`)
  }
  if (config.type === 'custom' && typeof config.extractor !== 'function') {
    throw new ERR_INVALID_OPTIONS(`versioning { type: 'custom' } needs an extractor(request) function, given ${describe(config.extractor)}.`)
  }
  if (config.defaultVersion !== undefined && !validVersion(config.defaultVersion)) {
    throw new ERR_INVALID_OPTIONS(`versioning.defaultVersion must be a version string, a list of them, or VERSION_NEUTRAL, given ${describe(config.defaultVersion)}.`)
  }
}

export function createVersioning (options: VersioningOptions | undefined): Versioning {
  const config = options ?? { type: 'header' as const }
  validateVersioning(config)
  const defaults = toList(config.defaultVersion)

  if (config.type === 'uri') {
    const prefix = config.prefix === false ? '' : (config.prefix ?? 'v')
    return {
      variants (versions) {
        const list = toList(versions) ?? defaults
        if (list === undefined) return unversioned
        return list.map((v) => v === VERSION_NEUTRAL ? { segment: '' } : { segment: `/${prefix}${String(v)}`, version: String(v) })
      },
      check () {},
      install () {}
    }
  }

  const derive = deriver(config)
  const fallback = defaults?.filter((v): v is string => typeof v === 'string') ?? []
  // What a request naming no version (or an empty one) asks for; undefined: the neutral handler.
  const defaultValue = fallback.length === 0 ? undefined : (fallback.length === 1 ? fallback[0] : fallback)
  const source = config.type === 'header'
    ? (config.header ?? 'accept-version').toLowerCase()
    : config.type === 'media-type' ? (config.key ?? 'v=') : extractorId(config.extractor)
  const name = strategyName(JSON.stringify([config.type, source, fallback]), config.type, String(source))
  // Fastify's own `version` strategy reads the same header: see shared-version.ts.
  const sharesHeader = config.type === 'header' && source === 'accept-version'
  let used = false

  return {
    variants (versions) {
      const list = toList(versions) ?? defaults
      if (list === undefined) return unversioned
      used = true
      return list.map((v) => v === VERSION_NEUTRAL ? { segment: '' } : { segment: '', constraint: { name, value: v as string }, version: v as string })
    },
    check (app) {
      if (used && sharesHeader) checkSharedVersion(app)
    },
    install (app) {
      if (!used) return
      if (sharesHeader) installSharedVersion(app)
      // A throwing extractor must not break routing (it runs for every request of the app): a
      // route of the path is found whatever its versions, and raises the error from onRequest.
      if (config.type === 'custom') app.addHook('onRequest', raiseExtractorError)
      // Constraint strategies belong to the whole router: another registration may have added it.
      if (app.hasConstraintStrategy(name)) return
      app.addConstraintStrategy({
        name,
        // A derived version nobody claims falls back to the unconstrained (neutral) route.
        mustMatchWhenDerived: false,
        storage: versionStorage as unknown as ConstraintStrategy['storage'],
        deriveConstraint (request: RawRequest) {
          const version = derive(request)
          return version === undefined ? defaultValue : version
        }
      })
    }
  }
}

/**
 * The version strategy's storage. find-my-way keeps, per constraint value, a bitmask of the
 * routes that have it (its types call it a handler, hence the one cast where it is handed over).
 */
function versionStorage (): { get: (value: unknown) => number | null, set: (value: unknown, mask: number) => void } {
  const masks = new Map<unknown, number>()
  return {
    get: (value) => {
      // Any route of the path will do: its onRequest hook answers with the extractor's error.
      if (value === kExtractorFailed) return [...masks.values()].reduce((all, mask) => all | mask, 0) || null
      // A list (from a custom extractor, or several default versions) takes the first one claimed.
      if (!Array.isArray(value)) return masks.get(value) ?? null
      for (const v of value) {
        const found = masks.get(v)
        if (found !== undefined) return found
      }
      return null
    },
    set: (value, mask) => { masks.set(value, mask) }
  }
}

function extractorId (extractor: Function): number {
  let id = extractorIds.get(extractor)
  if (id === undefined) extractorIds.set(extractor, id = ++extractors)
  return id
}

function raiseExtractorError (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  const raw = request.raw as RawRequest & { [kExtractorError]?: unknown }
  if (!(kExtractorError in raw)) return done()
  done(asError(raw[kExtractorError]))
}

/** A version, a list of them, or undefined for none (an empty value or list names none). */
function normalize (value: unknown): string | string[] | undefined {
  if (Array.isArray(value)) {
    const list = value.filter((v) => v !== undefined && v !== null && v !== '').map(String)
    return list.length === 0 ? undefined : list
  }
  return value === undefined || value === null || value === '' ? undefined : String(value)
}

function deriver (config: VersioningOptions): (request: RawRequest) => string | string[] | typeof kExtractorFailed | undefined {
  if (config.type === 'header') {
    const header = (config.header ?? 'accept-version').toLowerCase()
    return (request) => {
      const value = request.headers[header]
      return normalize(Array.isArray(value) ? value[0] : value)
    }
  }
  if (config.type === 'media-type') {
    const key = config.key ?? 'v='
    return (request) => normalize(mediaTypeVersion(request.headers.accept, key))
  }
  const { extractor } = config as Extract<VersioningOptions, { type: 'custom' }>
  return (request) => {
    try {
      return normalize(extractor(request))
    } catch (error) {
      (request as RawRequest & { [kExtractorError]?: unknown })[kExtractorError] = error
      return kExtractorFailed
    }
  }
}

/** The first media-range parameter starting with `key`, e.g. `application/json;v=2` -> `2`. */
export function mediaTypeVersion (accept: string | undefined, key: string): string | undefined {
  if (!accept) return undefined
  for (const range of accept.split(',')) {
    for (const part of range.split(';').slice(1)) {
      const param = part.trim()
      if (param.startsWith(key)) return param.slice(key.length).replace(/^"|"$/g, '')
    }
  }
  return undefined
}
