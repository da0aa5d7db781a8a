import type { FastifyInstance } from 'fastify'
import type { ControllerPlan } from './planner.js'
import { ERR_MISSING_PEER } from '../util/errors.js'

// The plugins whose request decorators @Cookies(), @SignedCookies() and @Session() read: checked
// once per controller context, so a missing one fails registration instead of every request.
const readers = {
  cookies: { decorator: 'cookies', what: '@Cookies()', plugin: '@fastify/cookie', example: 'app.register(cookie)' },
  signedCookies: { decorator: 'unsignCookie', what: '@SignedCookies()', plugin: '@fastify/cookie with a secret', example: 'app.register(cookie, { secret })' },
  session: { decorator: 'session', what: '@Session()', plugin: '@fastify/session or @fastify/secure-session', example: 'app.register(cookie); app.register(session, { secret })' }
} as const

/** Fails when a route of the controller reads a request decorator no plugin registered where it can see it. */
export function checkRequestPlugins (instance: FastifyInstance, plan: ControllerPlan): void {
  for (let r = 0; r < plan.routes.length; r++) {
    const { reads, owner } = plan.routes[r]
    for (let i = 0; i < reads.length; i++) {
      const reader = readers[reads[i] as keyof typeof readers]
      if (instance.hasRequestDecorator(reader.decorator)) continue
      throw new ERR_MISSING_PEER(`${owner} takes ${reader.what}, which reads request.${reader.decorator} from ${reader.plugin}, but none is registered where its routes can see it. Register it on the app before decoratorPlugin (${reader.example}) or list it in ${plan.module.name}'s plugins: @Module({ plugins: [...] }).`)
    }
  }
}
