// Runs on tsc output (emitDecoratorMetadata): the same controllers and DTOs, written with
// @nestjs/common's and @nestjs/swagger's decorators, documented by SwaggerModule on NestJS and
// by @fastify/swagger with the plugin.
import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { Body, Controller, Delete, Get, Headers, HttpCode, Module, Param, Post, Put, Query } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import {
  ApiBasicAuth, ApiBearerAuth, ApiBody, ApiCookieAuth, ApiCreatedResponse, ApiExcludeController, ApiExcludeEndpoint, ApiHeader,
  ApiNotFoundResponse, ApiOAuth2, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiQuery,
  ApiResponse, ApiSecurity, ApiTags, DocumentBuilder, SwaggerModule
} from '@nestjs/swagger'
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { build } from '../helpers/app.js'

enum Color { Black = 'black', White = 'white' }

class OwnerDto {
  @ApiProperty({ description: 'The owner\'s name', example: 'Ann' }) name!: string
}

class CreateCatDto {
  @ApiProperty({ description: 'The cat\'s name', example: 'Tom', minLength: 1 }) name!: string
  @ApiProperty({ minimum: 0, default: 1, format: 'int32', type: 'integer' }) age!: number
  @ApiPropertyOptional({ enum: Color, description: 'Coat' }) color?: Color
  @ApiProperty({ type: [String], example: ['mice'] }) likes!: string[]
  @ApiProperty({ type: () => OwnerDto }) owner!: OwnerDto
  @ApiProperty({ required: false, nullable: true }) nickname?: string
  @ApiProperty() vaccinated!: boolean
  @ApiProperty({ type: 'string', format: 'date-time' }) born!: Date
}

class CatDto extends CreateCatDto {
  @ApiProperty({ example: 1 }) id!: number
}

class ListQuery {
  @ApiPropertyOptional({ minimum: 1, default: 10 }) limit?: number
  @ApiPropertyOptional({ enum: ['asc', 'desc'] }) order?: string
}

@ApiTags('cats')
@ApiBearerAuth()
@Controller('cats')
class CatsController {
  @Post()
  @ApiOperation({ summary: 'Create a cat', description: 'Adds a cat to the store', operationId: 'createCat' })
  @ApiCreatedResponse({ description: 'The created cat', type: CatDto })
  create (@Body() cat: CreateCatDto) { return { id: 1, ...cat, extra: 'kept' } }

  @Get()
  @ApiOkResponse({ type: CatDto, isArray: true })
  list (@Query() query: ListQuery) { return [{ id: 1, name: 'Tom', secret: query.limit }] }

  @Get(':id')
  @ApiOperation({ summary: 'Find a cat' })
  @ApiParam({ name: 'id', description: 'The cat\'s id', type: Number })
  @ApiOkResponse({ type: CatDto })
  @ApiNotFoundResponse({ description: 'No such cat' })
  find (@Param('id') id: string) { return { id: Number(id), name: 'Tom', hidden: true } }

  @Put(':id')
  @ApiOperation({ deprecated: true })
  @ApiBody({ type: CreateCatDto, description: 'The new cat' })
  @ApiHeader({ name: 'x-request-id', description: 'Trace id', required: false })
  @ApiResponse({ status: 200, description: 'Replaced' })
  @ApiResponse({ status: 409, description: 'Conflict' })
  replace (@Param('id') id: string, @Body() cat: unknown) { return { id, cat } }

  @Delete(':id')
  @HttpCode(204)
  @ApiSecurity('api-key')
  @ApiBasicAuth()
  remove (@Param('id') _id: string) {}

  @Get('search/by')
  @ApiQuery({ name: 'q', required: true, description: 'Words' })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiOAuth2(['cats:read'])
  @ApiCookieAuth()
  search (@Query('q') q: string, @Query('page') page: string, @Headers('x-trace') _trace: string) { return { q, page } }

  @Get('internal')
  @ApiExcludeEndpoint()
  internal () { return 'internal' }
}

@ApiExcludeController()
@Controller('admin')
class AdminController {
  @Get() index () { return 'admin' }
}

// No tags, no operation: only a response for every handler, beside each one's own status.
@ApiResponse({ status: 500, description: 'Broken' })
@Controller('plain')
class PlainController {
  @Post('echo') echo (@Body() body: OwnerDto) { return body }
  @Get(':slug') find (@Param('slug') slug: string) { return slug }
}

@Module({ controllers: [CatsController, AdminController, PlainController] })
class AppModule {}

const apiKey = { type: 'apiKey', in: 'header', name: 'x-api-key' } as const

async function nestDocument (): Promise<any> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false })
  await app.init()
  try {
    return SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('Cats').setVersion('1')
      .addBearerAuth().addBasicAuth().addCookieAuth().addOAuth2().addSecurity('api-key', apiKey).build())
  } finally {
    await app.close()
  }
}

async function pluginApp (t: TestContext): Promise<FastifyInstance> {
  const { securitySchemes } = (await nestDocument()).components
  return await build(t, AppModule, {}, async (app) => {
    await app.register(swagger, { openapi: { info: { title: 'Cats', version: '1' }, components: { securitySchemes } } })
  })
}

// What a reader of the document sees of an operation. Left out: response descriptions (NestJS
// writes '' where @fastify/swagger writes 'Default Response'), an empty summary (NestJS writes
// '' where @fastify/swagger writes none) and @ApiBody's description (see docs/openapi.md).
function operations (document: any): Record<string, unknown> {
  const seen: Record<string, unknown> = {}
  for (const [path, methods] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(methods)) {
      const parameters = (operation.parameters ?? [])
        .map(({ name, in: where, required, description, schema }: any) => ({ name, in: where, required, description, schema }))
        .sort((a: any, b: any) => `${a.in} ${a.name}`.localeCompare(`${b.in} ${b.name}`))
      seen[`${method.toUpperCase()} ${path}`] = {
        parameters,
        requestBody: operation.requestBody?.content,
        responses: Object.fromEntries(Object.entries<any>(operation.responses).map(([status, response]) => [status, response.content])),
        tags: operation.tags,
        summary: operation.summary || undefined,
        description: operation.description,
        operationId: operation.operationId,
        deprecated: operation.deprecated,
        security: operation.security
      }
    }
  }
  return seen
}

test('SwaggerModule on NestJS and @fastify/swagger with the plugin document the same paths, operations, parameters, bodies, responses and component schemas', async (t) => {
  const nest = await nestDocument()
  const app = await pluginApp(t)
  const ours = (app as unknown as { swagger: () => any }).swagger()
  assert.deepEqual(Object.keys(ours.paths).sort(), Object.keys(nest.paths).sort())
  assert.deepEqual(operations(ours), operations(nest))
  // Both reference the models as #/components/schemas/<class>: compared as they are.
  assert.deepEqual(ours.components.schemas, nest.components.schemas)
  // Spot checks of what the comparison covers.
  assert.deepEqual(Object.keys(ours.paths['/cats'].post.responses), ['201'])
  assert.deepEqual(Object.keys(ours.paths['/cats/{id}'].get.responses).sort(), ['200', '404'])
  assert.equal(ours.paths['/cats'].post.summary, 'Create a cat')
  assert.deepEqual(ours.paths['/plain/{slug}'].get.tags, ['Plain'])
  assert.deepEqual(Object.keys(ours.paths['/plain/echo'].post.responses).sort(), ['201', '500'])
  assert.equal(ours.paths['/cats/internal'], undefined)
  assert.equal(ours.paths['/admin'], undefined)
})

test('documented responses do not change what the routes send', async (t) => {
  const app = await pluginApp(t)
  const created = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { id: 1, name: 'Tom', extra: 'kept' })
  const found = await app.inject('/cats/3')
  assert.deepEqual(found.json(), { id: 3, name: 'Tom', hidden: true })
  assert.deepEqual((await app.inject('/cats?limit=2')).json(), [{ id: 1, name: 'Tom', secret: '2' }])
  // Excluded from the document, still served.
  assert.equal((await app.inject('/cats/internal')).body, 'internal')
  assert.equal((await app.inject('/admin')).body, 'admin')
})
