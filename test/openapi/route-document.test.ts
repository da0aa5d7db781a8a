import { test } from 'node:test'
import assert from 'node:assert/strict'
import 'reflect-metadata'
import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import {
  ApiBody, ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiParam, ApiProduces, ApiConsumes, ApiProperty, ApiQuery,
  ApiResponse, ApiSecurity, ApiTags
} from '@nestjs/swagger'
import { Body, Controller, Get, Headers, Module, Param, Post, Query, RouteSchema, decoratorPlugin } from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { runWatched } from '../helpers/lazy-loading.js'

enum Size { Small = 's', Large = 'l' }

class CatDto {
  @ApiProperty({ type: Number }) id!: number
  @ApiProperty({ type: String, description: 'Name' }) name!: string
}

@ApiHeader({ name: 'x-tenant', description: 'Tenant' })
@ApiResponse({ status: 500, description: 'Broken' })
@ApiResponse({ status: 404, description: 'Not here' })
@Controller('cats')
class CatsController {
  @Get(':id/:part')
  @ApiParam({ name: 'id', description: 'Id' })
  @ApiOkResponse({ type: CatDto })
  @ApiResponse({ status: 404, description: 'No such cat' })
  @ApiProduces('application/json', 'text/plain')
  // The route's own response schema still serializes: unknown properties are dropped.
  @RouteSchema({ response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } })
  find (@Param('id') id: string, @Headers('x-trace') _trace: string) { return { id: Number(id), name: 'Tom' } }

  @Get()
  @ApiQuery({ name: 'size', enum: Size })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiSecurity('declared')
  @ApiSecurity('undeclared')
  @ApiTags('listing')
  list (@Query('size') size: string) { return [{ id: 1, name: 'Tom', size }] }

  @Post()
  @ApiBody({ type: [CatDto] })
  @ApiConsumes('application/json')
  @ApiExcludeEndpoint(false)
  @ApiSecurity('undeclared')
  create (@Body() cats: CatDto[]) { return { count: cats.length, cats } }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

const withSwagger = (app: FastifyInstance) => app.register(swagger, {
  openapi: { info: { title: 'Cats', version: '1' }, components: { securitySchemes: { declared: { type: 'apiKey', in: 'header', name: 'x-key' } } } }
})
const documentOf = (app: FastifyInstance): any => (app as unknown as { swagger: () => unknown }).swagger()

test('an operation gets its parameters, responses, tags and media types from @nestjs/swagger\'s decorators on the handler and its controller', async (t) => {
  const app = await build(t, CatsModule, {}, withSwagger)
  const find = documentOf(app).paths['/cats/{id}/{part}'].get
  // @ApiParam without a type keeps the parameter's; a path parameter no decorator names is listed too.
  assert.deepEqual(find.parameters.map(({ in: where, name, required, description, schema }: any) => ({ where, name, required, description, schema })), [
    { where: 'path', name: 'id', required: true, description: 'Id', schema: { type: 'string' } },
    { where: 'path', name: 'part', required: true, description: undefined, schema: { type: 'string' } },
    { where: 'header', name: 'x-trace', required: true, description: undefined, schema: { type: 'string' } },
    { where: 'header', name: 'x-tenant', required: true, description: 'Tenant', schema: { type: 'string' } }
  ])
  // The handler's 404 wins over the controller's; the controller's 500 is kept.
  assert.deepEqual(Object.keys(find.responses).sort(), ['200', '404', '500'])
  assert.equal(find.responses['404'].description, 'No such cat')
  assert.equal(find.responses['404'].content, undefined)
  // @ApiProduces gives the response's media types.
  assert.deepEqual(Object.keys(find.responses['200'].content), ['application/json', 'text/plain'])
  assert.deepEqual(find.tags, ['Cats'])
  assert.equal(find.operationId, 'CatsController_find')

  const list = documentOf(app).paths['/cats'].get
  // The controller's @ApiHeader is every handler's.
  assert.deepEqual(list.parameters.map(({ in: where, name, required, schema }: any) => ({ where, name, required, schema })), [
    { where: 'query', name: 'size', required: true, schema: { type: 'string', enum: ['s', 'l'] } },
    { where: 'query', name: 'page', required: false, schema: { type: 'number' } },
    { where: 'header', name: 'x-tenant', required: true, schema: { type: 'string' } }
  ])
  assert.deepEqual(list.tags, ['listing'])
  // A requirement naming a scheme @fastify/swagger's options do not declare is left out.
  assert.deepEqual(list.security, [{ declared: [] }])

  const create = documentOf(app).paths['/cats'].post
  assert.deepEqual(create.requestBody.content, { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/CatDto' } } } })
  assert.equal(create.security, undefined)
  assert.deepEqual(Object.keys(create.responses).sort(), ['201', '404', '500'])
  assert.deepEqual(Object.keys(documentOf(app).components.schemas), ['CatDto'])
})

test('the routes answer as without the decorators: documented responses neither validate nor serialize', async (t) => {
  const app = await build(t, CatsModule, {}, withSwagger)
  // The route's own @RouteSchema response still writes the answer.
  assert.deepEqual((await app.inject('/cats/3/x')).json(), { id: 3 })
  assert.deepEqual((await app.inject('/cats?size=x')).json(), [{ id: 1, name: 'Tom', size: 'x' }])
  const created = await app.inject({ method: 'POST', url: '/cats', payload: [{ id: 1, name: 'Tom', extra: true }] })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { count: 1, cats: [{ id: 1, name: 'Tom', extra: true }] })
})

test('without @fastify/swagger, or without any @nestjs/swagger decorator, routes carry nothing for the document', async (t) => {
  @Controller('dogs')
  class DogsController {
    @Post() create (@Body() body: unknown) { return body }
  }
  @Module({ controllers: [DogsController] })
  class DogsModule {}
  for (const [module, swaggerFirst] of [[CatsModule, false], [DogsModule, true]] as const) {
    const app = Fastify()
    t.after(() => app.close())
    const configs: unknown[] = []
    app.addHook('onRoute', (route) => { configs.push(route.config) })
    if (swaggerFirst) await withSwagger(app)
    await app.register(decoratorPlugin, { module })
    await app.ready()
    assert.ok(configs.length > 0)
    for (const config of configs) assert.equal((config as { swaggerTransform?: unknown } | undefined)?.swaggerTransform, undefined)
    if (swaggerFirst) {
      const create = documentOf(app).paths['/dogs'].post
      assert.equal(create.operationId, undefined)
      assert.equal(create.tags, undefined)
    }
  }
})

test('@nestjs/swagger is never loaded by the plugin: its decorators\' metadata is read by key, and an app without them loads nothing of it', async () => {
  // @nestjs/common is read whenever it is installed (see docs/nestjs-interop.md); @nestjs/swagger never.
  assert.deepEqual(await runWatched('fastify-swagger-app'), ['/docs', 'imported: @nestjs/common, the NestJS reader'])
  assert.deepEqual(await runWatched('nest-app'), ['hello from nest', 'imported: @nestjs/common, rxjs, the NestJS reader'])
})
