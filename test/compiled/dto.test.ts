// Runs on tsc output (emitDecoratorMetadata, class fields as tsc emits them): compiled DTOs
// found through the parameters' design types answer as class-validator does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import { IsInt, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator'
import { Type } from 'class-transformer'
import { Body, Controller, Get, Module, Post, Query, ValidationPipe } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

class Tag {
  @IsString() @Length(1, 8) label!: string
}

class CreatePostDto {
  @IsString() @Length(2, 20) title!: string
  @IsInt() @Min(1) likes: number = 1
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[]
  // No decorator: tsc still emits the field, so the instance has it.
  draft?: boolean
}

class TaggedSetDto {
  @ValidateNested({ each: true }) @Type(() => Tag) tags!: Set<Tag>
}

class SearchDto {
  @IsOptional() @IsString() q?: string
}

@Controller('posts')
class PostsController {
  @Post()
  create (@Body() post: CreatePostDto) { return { dto: post instanceof CreatePostDto, post } }

  @Post('set')
  set (@Body() body: TaggedSetDto) { return { size: body.tags instanceof Set ? body.tags.size : null } }

  @Get()
  search (@Query() query: SearchDto) { return query }
}

@Module({ controllers: [PostsController] })
class PostsModule {}

function schemasOf (app: FastifyInstance): Map<string, unknown> {
  const schemas = new Map<string, unknown>()
  app.addHook('onRoute', (route) => { schemas.set(`${String(route.method)} ${route.url}`, route.schema && JSON.parse(JSON.stringify(route.schema))) })
  return schemas
}

const payloads: unknown[] = [
  { title: 'Hello' },
  { title: 'Hello', likes: 3, tags: [{ label: 'a' }], draft: true },
  { title: 'H', likes: 0, tags: [{ label: '' }, { label: 1 }] },
  { title: 'Hello', tags: { label: 'a' } },
  { title: 'Hello', tags: [[{ label: 'a' }]] },
  { title: 'Hello', likes: null },
  [],
  'text',
  {}
]

for (const options of [{ transform: true }, { whitelist: true }, { whitelist: true, forbidNonWhitelisted: true }]) {
  test(`with design types from tsc, compiled and uncompiled ValidationPipe(${JSON.stringify(options)}) answer alike`, async (t) => {
    let schemas = new Map<string, unknown>()
    const compiled = await build(t, PostsModule, { globalPipes: [new ValidationPipe({ ...options, compile: true })] }, (app) => { schemas = schemasOf(app) })
    const plain = await build(t, PostsModule, { globalPipes: [new ValidationPipe(options)] })
    // Under forbidNonWhitelisted the undecorated field tsc emits fails every request: left to class-validator.
    assert.deepEqual(schemas.get('POST /posts'), 'forbidNonWhitelisted' in options ? undefined : { body: { $ref: 'CreatePostDto#' } })
    assert.deepEqual(schemas.get('GET /posts'), { querystring: { type: 'object', properties: { q: { type: ['string', 'null'] } }, ...('forbidNonWhitelisted' in options && { additionalProperties: false }) } })
    // A Set built from an array is not what a JSON array schema describes: left to class-validator.
    assert.equal(schemas.get('POST /posts/set'), undefined)
    for (const payload of payloads) {
      const send = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/posts', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
      const [expected, actual] = await Promise.all([send(plain), send(compiled)])
      assert.equal(actual.statusCode, expected.statusCode, JSON.stringify(payload))
      assert.deepEqual(actual.json(), expected.json(), JSON.stringify(payload))
    }
    assert.deepEqual((await compiled.inject({ method: 'POST', url: '/posts/set', payload: { tags: [{ label: 'a' }] } })).json(), (await plain.inject({ method: 'POST', url: '/posts/set', payload: { tags: [{ label: 'a' }] } })).json())
  })
}
