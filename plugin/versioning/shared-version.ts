import type { FastifyInstance } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { ERR_VERSION_CONFLICT } from '../util/errors.js'

/**
 * Fastify's built-in `version` constraint reads Accept-Version too, and find-my-way makes it
 * "must match": once any route uses it, a request carrying Accept-Version reaches only routes
 * constrained by it, and every other route (the plugin's included) answers 404. When the
 * plugin reads Accept-Version it therefore takes the `version` name first, with the same
 * semver matching for the app's routes but without that rule, so both kinds of routes answer.
 */

// Routers (one per Fastify instance, reached through its server) whose `version` is this one.
const installed = new WeakSet<object>()

/**
 * The versions of one route node, matched as find-my-way's semver store matches them: a request
 * names an exact `major.minor.patch` or a range (`1.x`, `1.2.x`, `x`, `*`), and a range answers
 * the highest version registered in it at the time it was registered.
 */
class SemverStore {
  readonly #entries = new Map<string, unknown>()
  #topMajor = 0
  readonly #topMinor = new Map<number, number>()
  readonly #topPatch = new Map<string, number>()

  get (version: string): unknown {
    return this.#entries.get(version)
  }

  set (version: string, store: unknown): this {
    if (typeof version !== 'string') throw new TypeError('Version should be a string')
    const [first, second, third] = version.split('.', 3)
    if (Number.isNaN(Number(first))) throw new TypeError('Major version must be a numeric value')
    const major = Number(first)
    const minor = Number(second) || 0
    const patch = Number(third) || 0
    if (major >= this.#topMajor) {
      this.#topMajor = major
      for (const range of ['x', '*', 'x.x', 'x.x.x']) this.#entries.set(range, store)
    }
    if (minor >= (this.#topMinor.get(major) ?? 0)) {
      this.#topMinor.set(major, minor)
      this.#entries.set(`${major}.x`, store)
      this.#entries.set(`${major}.x.x`, store)
    }
    if (patch >= (this.#topPatch.get(`${major}.${minor}`) ?? 0)) {
      this.#topPatch.set(`${major}.${minor}`, patch)
      this.#entries.set(`${major}.${minor}.x`, store)
    }
    this.#entries.set(`${major}.${minor}.${patch}`, store)
    return this
  }
}

/** Fastify's `version` strategy minus "must match": the app's semver routes answer as before. */
export const sharedVersionStrategy = {
  name: 'version',
  mustMatchWhenDerived: false,
  storage: () => new SemverStore(),
  validate (value: unknown) {
    if (typeof value !== 'string') throw new TypeError('Version should be a string')
  },
  deriveConstraint (request: IncomingMessage) {
    return request.headers['accept-version']
  }
}

/** Fails when the app already has a `version` strategy in use that is not this one. */
export function checkSharedVersion (app: FastifyInstance): void {
  if (!app.hasConstraintStrategy('version') || installed.has(app.server)) return
  throw new ERR_VERSION_CONFLICT(
    'The plugin\'s header versioning reads Accept-Version, and the app already has routes on Fastify\'s ' +
    'built-in `version` constraint (constraints: { version }), which reads the same header: Fastify then ' +
    'answers 404 to every request carrying Accept-Version on a route without that constraint, so the ' +
    'plugin\'s versioned routes could not be reached. Register decoratorPlugin before those routes (it ' +
    'then serves Accept-Version for both, with Fastify\'s semver matching for the app\'s routes), or give ' +
    'the plugin another header: versioning: { type: \'header\', header: \'X-API-Version\' }.'
  )
}

/** Takes the `version` name for the whole router, once. */
export function installSharedVersion (app: FastifyInstance): void {
  if (installed.has(app.server)) return
  app.addConstraintStrategy({ ...sharedVersionStrategy } as any)
  installed.add(app.server)
}
