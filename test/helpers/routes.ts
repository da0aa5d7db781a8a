import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'

/** The hooks Fastify runs for a route (`'/path (METHOD)'`), as its printRoutes() lists them once ready. */
export function effectiveHooks (app: FastifyInstance, route: string): string[] {
  const lines = app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n')
  const start = lines.findIndex((line) => line.trimEnd().endsWith(route))
  assert.notEqual(start, -1, `no route ${route}`)
  const hooks: string[] = []
  for (const line of lines.slice(start + 1)) {
    const hook = /• (.*)$/.exec(line)
    if (!hook) break
    hooks.push(hook[1])
  }
  return hooks
}
