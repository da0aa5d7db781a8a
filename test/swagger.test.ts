import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { Type } from '@sinclair/typebox'
import { decoratorPlugin, Module, Controller, Get, Post, Delete, Put, HttpCode, Param, Body, RouteSchema, Version } from '../plugin/index.js'
import { captureLogs } from './robustness/helpers.js'
import { build } from './helpers/app.js'

const Cat = Type.Object({ id: Type.Integer(), name: Type.String() })

@Controller('cats')
class CatsController {
  @Get()
  @RouteSchema({ summary: 'List cats', tags: ['cats'], response: { 200: Type.Array(Cat) } })
  list () { return [] }

  @Get(':id')
  @RouteSchema({ params: Type.Object({ id: Type.Integer() }), response: { 200: Cat, 404: Type.Object({ message: Type.String() }) } })
  findOne (@Param('id') id: number) { return { id, name: 'Tom' } }

  @Post()
  @RouteSchema({ body: Type.Object({ name: Type.String() }), response: { 201: Cat } })
  create (@Body() body: { name: string }) { return { id: 1, ...body } }

  @Delete(':id')
  @HttpCode(204)
  remove () {}

  @Put(':id/owners/:owner')
  setOwner () { return 'ok' }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

const withSwagger = (app: FastifyInstance) => app.register(swagger, { openapi: { info: { title: 'Cats', version: '1.0.0' } } })

test('decorated routes appear in @fastify/swagger\'s OpenAPI document with paths, methods, schemas and status codes', async (t) => {
  const app = await build(t, CatsModule, { prefix: '/api' }, async (app) => {
    await withSwagger(app)
    app.get('/legacy', async () => 'plain')
  })
  const doc = app.swagger() as any
  assert.equal(doc.openapi.startsWith('3.'), true)
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/api/cats', '/api/cats/{id}', '/api/cats/{id}/owners/{owner}', '/legacy'])
  assert.deepEqual(Object.keys(doc.paths['/api/cats']).sort(), ['get', 'post'])
  assert.deepEqual(Object.keys(doc.paths['/api/cats/{id}']).sort(), ['delete', 'get'])
  assert.deepEqual(Object.keys(doc.paths['/api/cats/{id}/owners/{owner}']), ['put'])

  const list = doc.paths['/api/cats'].get
  assert.equal(list.summary, 'List cats')
  assert.deepEqual(list.tags, ['cats'])
  assert.equal(list.responses['200'].content['application/json'].schema.type, 'array')
  assert.deepEqual(list.responses['200'].content['application/json'].schema.items.required, ['id', 'name'])

  const findOne = doc.paths['/api/cats/{id}'].get
  assert.deepEqual(findOne.parameters, [{ schema: { type: 'integer' }, in: 'path', name: 'id', required: true }])
  assert.deepEqual(Object.keys(findOne.responses).sort(), ['200', '404'])

  const create = doc.paths['/api/cats'].post
  assert.deepEqual(create.requestBody.content['application/json'].schema.properties, { name: { type: 'string' } })
  assert.deepEqual(Object.keys(create.responses), ['201'])

  // Routes without a schema are listed too, path parameters included.
  const setOwner = doc.paths['/api/cats/{id}/owners/{owner}'].put
  assert.deepEqual(setOwner.parameters.map((p: any) => [p.in, p.name]), [['path', 'id'], ['path', 'owner']])
  // Internal route config of the plugin does not leak into the document.
  assert.doesNotMatch(JSON.stringify(doc), /fdp/)
})

test('the documented routes still serve: serialization follows the documented response schema', async (t) => {
  const app = await build(t, CatsModule, { prefix: '/api' }, withSwagger)
  const res = await app.inject('/api/cats/3')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"id":3,"name":"Tom"}')
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/cats/3' })).statusCode, 204)
})

test('schema keys for the document pass through: hide leaves a route out; URI versions get their own paths', async (t) => {
  @Controller('dogs')
  class DogsController {
    @Get() @Version('1') v1 () { return 'v1' }
    @Get() @Version('2') @RouteSchema({ description: 'Second version' }) v2 () { return 'v2' }
    @Get('internal') @RouteSchema({ hide: true }) internal () { return 'internal' }
  }
  @Module({ controllers: [DogsController] })
  class DogsModule {}
  const app = await build(t, DogsModule, { versioning: { type: 'uri' } }, withSwagger)
  const doc = app.swagger() as any
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/v1/dogs', '/v2/dogs'])
  assert.equal(doc.paths['/v2/dogs'].get.description, 'Second version')
  assert.equal((await app.inject('/v2/dogs')).body, 'v2')
  assert.equal((await app.inject('/dogs/internal')).body, 'internal')
})

test('@fastify/swagger registered after the plugin, which it cannot document, is warned about once; before it, nothing is said', async (t) => {
  for (const order of ['swagger first', 'plugin first'] as const) {
    const logs = captureLogs()
    const app = Fastify({ logger: { stream: logs.stream } })
    t.after(() => app.close())
    if (order === 'swagger first') await app.register(swagger, { openapi: { info: { title: 'cats', version: '1' } } })
    await app.register(decoratorPlugin, { module: CatsModule })
    if (order === 'plugin first') await app.register(swagger, { openapi: { info: { title: 'cats', version: '1' } } })
    await app.ready()
    const warnings = logs.lines.filter((line) => line.level === 40).map((line) => line.msg)
    const paths = Object.keys((app as unknown as { swagger: () => { paths?: object } }).swagger().paths ?? {})
    if (order === 'swagger first') {
      assert.deepEqual(warnings, [])
      assert.ok(paths.length > 0)
    } else {
      assert.deepEqual(paths, [])
      assert.deepEqual(warnings, ['@fastify/swagger was registered after fastify-decorator-plugin: it documents only the routes added after it, so its document leaves out the decorated routes. Register @fastify/swagger before decoratorPlugin.'])
    }
  }
})
