import type { FastifyInstance } from 'fastify'
import { ERR_MISSING_PEER } from '../util/errors.js'

interface Reader {
  /** Whether the plugin is registered where the context's routes can see it. */
  present: (instance: FastifyInstance) => boolean
  /** The error's message for a route of `owner` in `moduleName`. */
  missing: (owner: string, moduleName: string) => string
}

// A parameter read from a request decorator another plugin adds.
function decoratorReader (decorator: string, what: string, plugin: string, example: string): Reader {
  return {
    present: (instance) => instance.hasRequestDecorator(decorator),
    missing: (owner, moduleName) => `${owner} takes ${what}, which reads request.${decorator} from ${plugin}, but none is registered where its routes can see it. Register it on the app before decoratorPlugin (${example}) or list it in ${moduleName}'s plugins: @Module({ plugins: [...] }).`
  }
}

const multipart: Reader = {
  present: (instance) => instance.hasRequestDecorator('isMultipart') && instance.hasContentTypeParser('multipart/form-data'),
  missing: (owner, moduleName) => `${owner} takes @UploadedFile()/@UploadedFiles(), which read files through @fastify/multipart, but no @fastify/multipart is registered where its routes can see it. npm install @fastify/multipart, then register it on the app before decoratorPlugin or list it in ${moduleName}'s plugins: @Module({ plugins: [multipart] }).`
}

// The plugins the parameters read from: checked once per controller context at registration, so a
// missing one fails registration instead of every request.
const readers: Record<string, Reader> = {
  file: multipart,
  files: multipart,
  cookies: decoratorReader('cookies', '@Cookies()', '@fastify/cookie', 'app.register(cookie)'),
  signedCookies: decoratorReader('unsignCookie', '@SignedCookies()', '@fastify/cookie with a secret', 'app.register(cookie, { secret })'),
  session: decoratorReader('session', '@Session()', '@fastify/session or @fastify/secure-session', 'app.register(cookie); app.register(session, { secret })')
}

/** Whether a parameter of this kind reads what another plugin adds to the request. */
export function readsPlugin (kind: string): boolean {
  return Object.hasOwn(readers, kind)
}

/** Fails when a route of the controller reads what no plugin registered where it can see it. */
export function checkRequestPlugins (instance: FastifyInstance, plan: { module: { name: string }, routes: Array<{ owner: string, reads: string[] }> }): void {
  for (let r = 0; r < plan.routes.length; r++) {
    const { reads, owner } = plan.routes[r]
    for (let i = 0; i < reads.length; i++) {
      const reader = readers[reads[i]]
      if (!reader.present(instance)) throw new ERR_MISSING_PEER(reader.missing(owner, plan.module.name))
    }
  }
}
