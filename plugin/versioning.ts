import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { VersioningOptions, VersionValue } from '../types/index.js'
import { VERSION_NEUTRAL } from './tokens.js'
import { kVersion } from './symbols.js'
import { ERR_INVALID_DECLARATION, ERR_INVALID_OPTIONS, describe } from './errors.js'

type Version = string | symbol

function validVersion (value: unknown): boolean {
  const list = Array.isArray(value) ? value : [value]
  return list.length > 0 && list.every((v) => (typeof v === 'string' && v !== '') || v === VERSION_NEUTRAL)
}

/** The versions a handler answers: a string, a list, or VERSION_NEUTRAL. */
export function Version (version: VersionValue): MethodDecorator {
  if (!validVersion(version)) {
    throw new ERR_INVALID_DECLARATION(`@Version() takes a non-empty string, an array of them, or VERSION_NEUTRAL, given ${describe(version)}.`)
  }
  return (target, key, descriptor) => { Reflect.defineMetadata(kVersion, version, descriptor.value as object) }
}

export function handlerVersion (handler: object): VersionValue | undefined {
  return Reflect.getOwnMetadata(kVersion, handler)
}

/** One registration of a handler: a URL segment (uri type) or a constraint value. */
export interface VersionVariant {
  segment: string
  constraint?: { name: string, value: string }
}

export interface Versioning {
  /** How a handler with these versions (undefined: none declared) is registered. */
  variants (versions: VersionValue | undefined): VersionVariant[]
  /** Adds the plugin's constraint strategy to the router once, if a route needs it. */
  install (app: FastifyInstance): void
}

const unversioned: VersionVariant[] = [{ segment: '' }]
let customStrategies = 0

function toList (value: VersionValue | undefined): Version[] | undefined {
  if (value === undefined) return undefined
  return Array.isArray(value) ? [...new Set(value)] : [value]
}

export function createVersioning (options: VersioningOptions | undefined): Versioning {
  const config = options ?? { type: 'header' as const }
  const types = ['header', 'uri', 'media-type', 'custom']
  if (typeof config !== 'object' || config === null || !types.includes(config.type)) {
    throw new ERR_INVALID_OPTIONS(`versioning.type must be one of ${types.join(', ')}, given ${describe((config as { type?: unknown })?.type)}.`)
  }
  if (config.defaultVersion !== undefined && !validVersion(config.defaultVersion)) {
    throw new ERR_INVALID_OPTIONS(`versioning.defaultVersion must be a version string, a list, or VERSION_NEUTRAL, given ${describe(config.defaultVersion)}.`)
  }
  const defaults = toList(config.defaultVersion)

  if (config.type === 'uri') {
    const prefix = config.prefix === false ? '' : (config.prefix ?? 'v')
    return {
      variants (versions) {
        const list = toList(versions) ?? defaults
        if (list === undefined) return unversioned
        return list.map((v) => ({ segment: v === VERSION_NEUTRAL ? '' : `/${prefix}${String(v)}` }))
      },
      install () {}
    }
  }

  if (config.type === 'custom' && typeof config.extractor !== 'function') {
    throw new ERR_INVALID_OPTIONS(`versioning { type: 'custom' } needs an extractor(request) function, given ${describe(config.extractor)}.`)
  }
  const derive = deriver(config)
  const fallback = defaults?.filter((v): v is string => typeof v === 'string')
  const defaultValue = fallback && fallback.length > 0 ? (fallback.length === 1 ? fallback[0] : fallback) : undefined
  const name = config.type === 'custom'
    ? `fdpVersionCustom${++customStrategies}`
    : `fdpVersion_${config.type.replace('-', '_')}_${(config.type === 'header' ? (config.header ?? 'accept-version') : (config.key ?? 'v=')).replace(/\W/g, '_')}`
  let used = false

  return {
    variants (versions) {
      const list = toList(versions) ?? defaults
      if (list === undefined) return unversioned
      used = true
      return list.map((v) => v === VERSION_NEUTRAL ? { segment: '' } : { segment: '', constraint: { name, value: v as string } })
    },
    install (app) {
      if (!used || app.hasConstraintStrategy(name)) return
      app.addConstraintStrategy({
        name,
        mustMatchWhenDerived: false,
        storage () {
          const stores = new Map<string, unknown>()
          return {
            get: (value: string | string[]) => {
              if (!Array.isArray(value)) return stores.get(value) ?? null
              for (const v of value) {
                const found = stores.get(v)
                if (found !== undefined) return found
              }
              return null
            },
            set: (value: string, store: unknown) => { stores.set(value, store) }
          } as any
        },
        deriveConstraint (request: FastifyRequest) {
          const version = derive(request)
          return (version === undefined || version === '' || (Array.isArray(version) && version.length === 0)) ? defaultValue : version
        }
      } as any)
    }
  }
}

function deriver (config: VersioningOptions): (request: FastifyRequest) => string | string[] | undefined {
  if (config.type === 'header') {
    const header = (config.header ?? 'accept-version').toLowerCase()
    return (request) => {
      const value = request.headers[header]
      return Array.isArray(value) ? value[0] : value
    }
  }
  if (config.type === 'media-type') {
    const key = config.key ?? 'v='
    return (request) => mediaTypeVersion(request.headers.accept, key)
  }
  const { extractor } = config as Extract<VersioningOptions, { type: 'custom' }>
  return (request) => {
    const value = extractor(request)
    return Array.isArray(value) ? value.map(String) : (value === undefined || value === null ? undefined : String(value))
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
