import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { Controller, Delete, Get, Module, Param, Post, Put, decoratorPlugin, type Type } from '../../plugin/index.js'

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const decorators = { GET: Get, POST: Post, PUT: Put, DELETE: Delete }

// A path segment: static text (no router syntax) or a parameter, named later.
type Segment = { param: false, text: string } | { param: true }

interface RouteSpec { method: Method, controller: Segment[], path: Segment[], slashes: [boolean, boolean, boolean, boolean] }

const staticText = fc.stringMatching(/^[a-zA-Z0-9_~-][a-zA-Z0-9._~-]{0,5}$/)
const segment: fc.Arbitrary<Segment> = fc.oneof(
  staticText.map((text) => ({ param: false as const, text })),
  fc.constant({ param: true as const })
)
const routeSpec: fc.Arbitrary<RouteSpec> = fc.record({
  method: fc.constantFrom<Method>('GET', 'POST', 'PUT', 'DELETE'),
  controller: fc.array(segment, { maxLength: 2 }),
  path: fc.array(segment, { maxLength: 2 }),
  // Leading and trailing slashes on the controller and route paths: decoration only.
  slashes: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean())
})

/** Names parameters p0, p1, ... along the whole path, so a route never repeats a name. */
function render (spec: RouteSpec) {
  let n = 0
  const text = (segments: Segment[]) => segments.map((s) => s.param ? `:p${n++}` : s.text)
  const controller = text(spec.controller)
  const path = text(spec.path)
  const [cLead, cTrail, pLead, pTrail] = spec.slashes
  const wrap = (parts: string[], lead: boolean, trail: boolean) => parts.length === 0 ? '' : `${lead ? '/' : ''}${parts.join('/')}${trail ? '/' : ''}`
  return {
    controllerPath: wrap(controller, cLead, cTrail),
    routePath: wrap(path, pLead, pTrail),
    segments: [...spec.controller, ...spec.path],
    names: Array.from({ length: n }, (_, i) => `p${i}`)
  }
}

// Two routes with the same method and shape would be a duplicate in either app.
const shape = (spec: RouteSpec) => `${spec.method} ${[...spec.controller, ...spec.path].map((s) => s.param ? ':' : s.text).join('/')}`

interface Scenario { prefix: string[], routes: RouteSpec[], values: string[][], extra: Array<{ method: Method | 'HEAD', path: string }> }

const scenario: fc.Arbitrary<Scenario> = fc.record({
  prefix: fc.array(staticText, { maxLength: 1 }),
  routes: fc.uniqueArray(routeSpec, { minLength: 1, maxLength: 6, selector: shape }),
  // Parameter values, percent-encoded when sent: any text, unicode and slashes included.
  values: fc.array(fc.array(fc.string({ minLength: 1, maxLength: 8, unit: 'binary' }), { minLength: 4, maxLength: 4 }), { minLength: 6, maxLength: 6 }),
  extra: fc.array(fc.record({
    method: fc.constantFrom<Method | 'HEAD'>('GET', 'POST', 'PUT', 'DELETE', 'HEAD'),
    path: fc.array(fc.oneof(staticText, fc.constant('')), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`)
  }), { maxLength: 4 })
})

async function plainApp (scene: Scenario): Promise<FastifyInstance> {
  const app = Fastify()
  scene.routes.forEach((spec, i) => {
    const { segments, names } = render(spec)
    let n = 0
    const url = `/${[...scene.prefix, ...segments.map((s) => s.param ? `:${names[n++]}` : s.text)].join('/')}`
    app.route({
      method: spec.method,
      url,
      handler: async (req, reply) => {
        if (spec.method === 'POST') reply.code(201)
        return { route: i, params: req.params }
      }
    })
  })
  await app.ready()
  return app
}

async function decoratedApp (scene: Scenario): Promise<FastifyInstance> {
  // Routes sharing a controller path share a controller class, as in a real app.
  const classes = new Map<string, Type>()
  scene.routes.forEach((spec, i) => {
    const { controllerPath, routePath } = render(spec)
    let cls = classes.get(controllerPath)
    if (!cls) classes.set(controllerPath, cls = class GeneratedController {})
    const key = `route${i}`
    Object.defineProperty(cls.prototype, key, { value: (params: unknown) => ({ route: i, params }), configurable: true, writable: true })
    Param()(cls.prototype, key, 0)
    decorators[spec.method](routePath)(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)!)
  })
  for (const [path, cls] of classes) Controller(path)(cls)
  const RootModule = class RootModule {}
  Module({ controllers: [...classes.values()] })(RootModule)

  const app = Fastify()
  await app.register(decoratorPlugin, { module: RootModule, prefix: scene.prefix.length > 0 ? `/${scene.prefix.join('/')}` : undefined })
  await app.ready()
  return app
}

/** Requests: each route with its own parameter values, the same with a trailing slash, and random paths. */
function requests (scene: Scenario): Array<{ method: string, url: string }> {
  const out: Array<{ method: string, url: string }> = []
  scene.routes.forEach((spec, i) => {
    const values = scene.values[i]
    let n = 0
    const url = `/${[...scene.prefix, ...[...spec.controller, ...spec.path].map((s) => s.param ? encodeURIComponent(values[n++ % values.length]) : s.text)].join('/')}`
    out.push({ method: spec.method, url }, { method: spec.method, url: `${url}/` }, { method: spec.method === 'GET' ? 'HEAD' : 'GET', url })
  })
  return out.concat(scene.extra.map(({ method, path }) => ({ method, url: path })))
}

test('random controller paths and parameters: decorated routes match the same requests, with the same parameters, as plain Fastify routes', async () => {
  await fc.assert(fc.asyncProperty(scenario, async (scene) => {
    const [plain, decorated] = await Promise.all([plainApp(scene), decoratedApp(scene)])
    try {
      for (const { method, url } of requests(scene)) {
        const [expected, actual] = await Promise.all([plain.inject({ method: method as Method, url }), decorated.inject({ method: method as Method, url })])
        assert.deepEqual(
          { status: actual.statusCode, body: actual.body === '' ? '' : actual.json() },
          { status: expected.statusCode, body: expected.body === '' ? '' : expected.json() },
          `${method} ${url}`
        )
      }
    } finally {
      await Promise.all([plain.close(), decorated.close()])
    }
  }), { numRuns: 150 })
})
