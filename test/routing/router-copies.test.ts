import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Post } from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { sameShape } from '../helpers/shape.js'

// A file of its own: V8's copies depend on what the copying code has seen before in the process,
// and here Fastify has copied no other route's options first.
test('the copies Fastify makes of the plugin\'s route options share their hidden classes, route after route', async (t) => {
  // Fastify copies each route's options and adds to the copy; copies of plain objects would each
  // get hidden classes of their own, startup memory and time for every route.
  const controllers = Array.from({ length: 12 }, (_, c) => {
    @Controller(`copies${c}`)
    class CopiesController {
      @Get() list () { return [] }
      @Post() create () { return 'created' }
    }
    return CopiesController
  })
  @Module({ controllers })
  class CopiesModule {}
  const copies = new Map<string, object[]>()
  const app = await build(t, CopiesModule, {}, (app) => app.addHook('onRoute', (route) => {
    const method = String(route.method)
    copies.set(method, [...(copies.get(method) ?? []), route])
  }))
  for (const method of ['GET', 'POST']) {
    const routes = copies.get(method)!
    assert.equal(routes.length, 12)
    for (const route of routes) assert.equal(sameShape(route, routes[0]), true, method)
  }
  assert.equal((await app.inject({ method: 'POST', url: '/copies11' })).statusCode, 201)
})
