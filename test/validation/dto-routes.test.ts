import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { IsEmail, IsInt, IsOptional, IsString, Min, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator'
import { Type } from 'class-transformer'
import {
  BadRequestException, Body, Catch, Controller, Get, HttpException, Injectable, Module, Param, ParseIntPipe, Post, Put, Query, RouteSchema,
  UseGuards, UseInterceptors, UsePipes, ValidationPipe, decoratorPlugin,
  type ArgumentsHost, type CallHandler, type DecoratorPluginOptions, type ExceptionFilter, type ExecutionContext, type NestInterceptor,
  type PipeTransform
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { paramTypes } from '../helpers/dto.js'
import { DtoSchemas } from '../../plugin/validation/dto-registry.js'

class Owner {
  @IsString() name!: string
}

class CreateCat {
  @IsString() name!: string
  @IsInt() @Min(0) age!: number
  @IsOptional() @IsEmail() email?: string
  @IsOptional() @ValidateNested() @Type(() => Owner) owner?: Owner
}

class CatQuery {
  @IsOptional() @IsString() name?: string
}

class CatParams {
  @IsString() id!: string
}

class CatView {
  @IsString() name!: string
  @IsInt() age!: number
}

const json = { 'content-type': 'application/json' }
const invalid = { name: 1, age: -1, owner: { name: 2 } }
const invalidMessages = ['name must be a string', 'age must not be less than 0', 'owner.name must be a string']

/** Every route schema Fastify registered, by method and URL. */
function routeSchemas (app: FastifyInstance): Map<string, any> {
  const schemas = new Map<string, any>()
  app.addHook('onRoute', (route) => { schemas.set(`${String(route.method)} ${route.url}`, route.schema && JSON.parse(JSON.stringify(route.schema))) })
  return schemas
}

@Controller('cats')
class CatsController {
  @Post()
  create (@Body() cat: CreateCat) { return { dto: cat instanceof CreateCat, ownerDto: cat.owner instanceof Owner, cat } }

  @Get()
  list (@Query() query: CatQuery) { return query }

  @Get(':id')
  findOne (@Param() params: CatParams) { return params }
}
paramTypes(CatsController, 'create', [CreateCat])
paramTypes(CatsController, 'list', [CatQuery])
paramTypes(CatsController, 'findOne', [CatParams])

@Module({ controllers: [CatsController] })
class CatsModule {}

test('with a global ValidationPipe({ compile: true }) the DTOs of @Body(), @Query() and @Param() objects become the route schema', async (t) => {
  let schemas = new Map<string, any>()
  const app = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ compile: true })] }, (app) => { schemas = routeSchemas(app) })
  assert.deepEqual(schemas.get('POST /cats'), { body: { $ref: 'CreateCat#' } })
  assert.deepEqual(schemas.get('GET /cats'), { querystring: { type: 'object', properties: { name: { type: ['string', 'null'] } } } })
  assert.deepEqual(schemas.get('GET /cats/:id'), { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } })

  const created = await app.inject({ method: 'POST', url: '/cats', headers: json, payload: { name: 'Tom', age: 2, extra: true } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { dto: false, ownerDto: false, cat: { name: 'Tom', age: 2, extra: true } })
  const rejected = await app.inject({ method: 'POST', url: '/cats', headers: json, payload: invalid })
  assert.equal(rejected.statusCode, 400)
  assert.deepEqual(rejected.json(), { statusCode: 400, message: invalidMessages, error: 'Bad Request' })
  // No body at all validates as {}, as without compiling.
  const empty = await app.inject({ method: 'POST', url: '/cats' })
  assert.deepEqual(empty.json().message, ['name must be a string', 'age must not be less than 0', 'age must be an integer number'])
  assert.deepEqual((await app.inject('/cats?name=Tom')).json(), { name: 'Tom' })
  assert.deepEqual((await app.inject('/cats?name=a&name=b')).json().message, ['name must be a string'])
  assert.equal((await app.inject({ method: 'HEAD', url: '/cats?name=Tom' })).statusCode, 200)
  assert.deepEqual((await app.inject('/cats/7')).json(), { id: '7' })
})

test('transform and whitelist hand the handler what class-validator would: DTO instances, undeclared properties removed at every level', async (t) => {
  const app = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ compile: true, transform: true, whitelist: true })] })
  const created = await app.inject({ method: 'POST', url: '/cats', headers: json, payload: { name: 'Tom', age: 2, extra: 1, owner: { name: 'Ann', extra: 2 } } })
  assert.deepEqual(created.json(), { dto: true, ownerDto: true, cat: { name: 'Tom', age: 2, owner: { name: 'Ann' } } })
  const closed = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ compile: true, whitelist: true, forbidNonWhitelisted: true })] })
  const rejected = await closed.inject({ method: 'POST', url: '/cats', headers: json, payload: { name: 'Tom', age: 2, extra: 1, owner: { name: 'Ann', more: 2 } } })
  assert.deepEqual(rejected.json().message, ['property extra should not exist', 'owner.property more should not exist'])
})

test('a built-in type is never compiled, even one given class-validator metadata', () => {
  // ValidationPipe leaves Date alone; a compiled Date would let a mark decide for it.
  class Labelled { @IsString() label!: string }
  IsString()(Date.prototype, 'label')
  assert.equal(typeof new DtoSchemas(Fastify().log, () => false).variant(Labelled), 'object')
  assert.equal(new DtoSchemas(Fastify().log, () => false).variant(Date), 'Date is a type ValidationPipe does not validate')
})

@Injectable()
class CatchAll implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    try {
      return await next.handle()
    } catch (error) {
      return { caught: (error as BadRequestException).getResponse() }
    }
  }
}

@Controller('owners')
class OwnersController {
  @Put(':id')
  update (@Param('id', ParseIntPipe) id: number, @Body() cat: CreateCat) { return { id, cat } }

  @Post()
  @UseInterceptors(CatchAll)
  create (@Body() cat: CreateCat) { return cat }
}
paramTypes(OwnersController, 'update', [Number, CreateCat])
paramTypes(OwnersController, 'create', [CreateCat])

@Module({ controllers: [OwnersController], providers: [CatchAll] })
class OwnersModule {}

test('a compiled DTO answers at its pipe\'s turn: earlier parameters and interceptors see what they saw without compiling', async (t) => {
  for (const compile of [false, true]) {
    const app = await build(t, OwnersModule, { globalPipes: [new ValidationPipe({ compile })] })
    const both = await app.inject({ method: 'PUT', url: '/owners/abc', headers: json, payload: invalid })
    assert.deepEqual(both.json().message, 'Validation failed (numeric string is expected)', `compile: ${compile}`)
    const caught = await app.inject({ method: 'POST', url: '/owners', headers: json, payload: invalid })
    assert.deepEqual(caught.json(), { caught: { statusCode: 400, message: invalidMessages, error: 'Bad Request' } }, `compile: ${compile}`)
  }
})

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate (value: unknown) { return typeof value === 'number' && value % 2 === 0 }
  defaultMessage () { return '$property must be even' }
}

class EvenCat {
  @Validate(Even) age!: number
}

const upper: PipeTransform = { transform: (value: any) => ({ ...value, name: String(value?.name).toUpperCase() }) }

@Controller('mixed')
class MixedController {
  @Post('even')
  even (@Body() cat: EvenCat) { return cat }

  @Post('piped')
  @UsePipes(upper)
  piped (@Body(new ValidationPipe({ compile: true })) cat: CreateCat) { return cat }

  @Post('param')
  param (@Body(new ValidationPipe({ compile: true })) cat: CreateCat) { return cat }

  @Post('schema')
  @RouteSchema({ querystring: { type: 'object', properties: { q: { type: 'integer' } } } })
  schema (@Body() cat: CreateCat, @Query('q') q: number) { return { cat, q } }

  @Post('twice')
  twice (@Body() cat: CreateCat, @Body() again: CreateCat) { return { cat, again } }
}
paramTypes(MixedController, 'even', [EvenCat])
paramTypes(MixedController, 'piped', [CreateCat])
paramTypes(MixedController, 'param', [CreateCat])
paramTypes(MixedController, 'schema', [CreateCat, Number])
paramTypes(MixedController, 'twice', [CreateCat, CreateCat])

@Module({ controllers: [MixedController] })
class MixedModule {}

/** An app logging at debug level into `lines`. */
async function logged (module: Function, options: Partial<DecoratorPluginOptions>, lines: any[], before?: (app: FastifyInstance) => unknown): Promise<FastifyInstance> {
  const stream = new Writable({ write (chunk, encoding, done) { lines.push(JSON.parse(String(chunk))); done() } })
  const app = Fastify({ logger: { level: 'debug', stream } })
  await before?.(app)
  await app.register(decoratorPlugin, { ...options, module } as DecoratorPluginOptions)
  await app.ready()
  return app
}

test('a DTO the compiler cannot express keeps class-validator, and a debug line says which DTO and why', async (t) => {
  const lines: any[] = []
  let schemas = new Map<string, any>()
  const app = await logged(MixedModule, { globalPipes: [new ValidationPipe({ compile: true })] }, lines, (app) => { schemas = routeSchemas(app) })
  t.after(() => app.close())
  const reasons = lines.filter((line) => line.dto !== undefined).map((line) => [line.level, line.dto, line.reason])
  assert.deepEqual(reasons, [
    [20, 'EvenCat', 'EvenCat.age uses the constraint even (a custom one, or one the compiler does not translate)'],
    [20, 'CreateCat', 'MixedController.schema: its @RouteSchema() has JSON schemas for the request'],
    [20, 'CreateCat', 'MixedController.twice: several parameters read the whole body'],
    [20, 'CreateCat', 'MixedController.twice: several parameters read the whole body']
  ])
  assert.match(lines.find((line) => line.dto === 'EvenCat').msg, /^DTO EvenCat is not compiled to a JSON schema and keeps class-validator at run time: /)
  assert.equal(schemas.get('POST /mixed/even'), undefined)
  assert.deepEqual(schemas.get('POST /mixed/schema'), { querystring: { type: 'object', properties: { q: { type: 'integer' } } } })
  // Answers stay class-validator's.
  assert.deepEqual((await app.inject({ method: 'POST', url: '/mixed/even', headers: json, payload: { age: 3 } })).json().message, ['age must be even'])
  assert.deepEqual((await app.inject({ method: 'POST', url: '/mixed/schema?q=2', headers: json, payload: { name: 'a', age: 1 } })).json(), { cat: { name: 'a', age: 1 }, q: 2 })
})

test('a compiling pipe given on the parameter compiles its DTO, unless another pipe runs before it', async (t) => {
  const lines: any[] = []
  let schemas = new Map<string, any>()
  const app = await logged(MixedModule, {}, lines, (app) => { schemas = routeSchemas(app) })
  t.after(() => app.close())
  assert.deepEqual(schemas.get('POST /mixed/param'), { body: { $ref: 'CreateCat#' } })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/mixed/param', headers: json, payload: invalid })).json().message, invalidMessages)
  assert.equal(schemas.get('POST /mixed/piped'), undefined)
  assert.deepEqual(lines.filter((line) => line.dto !== undefined).map((line) => line.reason), ['MixedController.piped: a pipe runs before the compiling ValidationPipe'])
  // The pipe before it changes the body class-validator sees.
  assert.deepEqual((await app.inject({ method: 'POST', url: '/mixed/piped', headers: json, payload: { name: 'tom', age: 1 } })).json(), { name: 'TOM', age: 1 })
})

@Injectable()
class NoGuest {
  canActivate (ctx: ExecutionContext) { return ctx.switchToHttp().getRequest().headers['x-guest'] === undefined }
}

@Controller('strict')
class StrictController {
  @Post()
  @UseGuards(NoGuest)
  @UseInterceptors(CatchAll)
  @RouteSchema({ body: CreateCat, querystring: CatQuery, response: { 201: CatView } })
  create (@Body() cat: unknown) { return { ...(cat as object), secret: 'x' } }

  @Get()
  @RouteSchema({ response: { 200: { type: 'array', items: CatView } } })
  list () { return [{ name: 'Tom', age: 2, secret: 'x' }] }
}

@Module({ controllers: [StrictController], providers: [NoGuest, CatchAll] })
class StrictModule {}

test('a DTO class in @RouteSchema validates in Fastify\'s validation step with ValidationPipe\'s 400, and response DTOs serialize', async (t) => {
  let schemas = new Map<string, any>()
  const app = await build(t, StrictModule, {}, (app) => { schemas = routeSchemas(app) })
  assert.deepEqual(schemas.get('POST /strict'), {
    body: { $ref: 'CreateCat#' },
    querystring: { type: 'object', properties: { name: { type: ['string', 'null'] } } },
    response: { 201: { $ref: 'CatView#' } }
  })
  const created = await app.inject({ method: 'POST', url: '/strict', headers: json, payload: { name: 'Tom', age: 2, extra: 1 } })
  assert.equal(created.statusCode, 201)
  // fast-json-stringify writes the declared properties only.
  assert.equal(created.body, '{"name":"Tom","age":2}')
  // Answered before the handler: the interceptor does not see it; guards still come first.
  const rejected = await app.inject({ method: 'POST', url: '/strict', headers: json, payload: invalid })
  assert.deepEqual(rejected.json(), { statusCode: 400, message: invalidMessages, error: 'Bad Request' })
  assert.equal((await app.inject({ method: 'POST', url: '/strict', headers: { ...json, 'x-guest': '1' }, payload: invalid })).statusCode, 403)
  const required = ['name must be a string', 'age must not be less than 0', 'age must be an integer number']
  assert.deepEqual((await app.inject({ method: 'POST', url: '/strict', headers: json, payload: [1] })).json().message, ['body must be an object', ...required])
  // Fastify gives a missing body as null: refused, as Fastify's own body schemas refuse it.
  assert.deepEqual((await app.inject({ method: 'POST', url: '/strict' })).json().message, ['body must be an object', ...required])
  assert.deepEqual((await app.inject({ method: 'POST', url: '/strict?name=a&name=b', headers: json, payload: { name: 'Tom', age: 2 } })).json().message, ['name must be a string'])
  assert.equal((await app.inject('/strict')).body, '[{"name":"Tom","age":2}]')
})

@Catch(BadRequestException)
class TeapotFilter implements ExceptionFilter {
  catch (exception: BadRequestException, host: ArgumentsHost) {
    host.switchToHttp().getResponse().code(418).send({ teapot: exception.getResponse() })
  }
}

test('exception filters see the 400 of a @RouteSchema DTO; a compiling pipe\'s exceptionFactory gets class-validator\'s errors', async (t) => {
  const filtered = await build(t, StrictModule, { globalFilters: [new TeapotFilter()] })
  const rejected = await filtered.inject({ method: 'POST', url: '/strict', headers: json, payload: invalid })
  assert.equal(rejected.statusCode, 418)
  assert.deepEqual(rejected.json(), { teapot: { statusCode: 400, message: invalidMessages, error: 'Bad Request' } })

  const factory = new ValidationPipe({ compile: true, exceptionFactory: (errors) => new HttpException({ fields: errors.map((error) => error.property) }, 422) })
  const app = await build(t, CatsModule, { globalPipes: [factory] })
  const failed = await app.inject({ method: 'POST', url: '/cats', headers: json, payload: invalid })
  assert.equal(failed.statusCode, 422)
  assert.deepEqual(failed.json(), { fields: ['name', 'age', 'owner'] })
})

@Controller('bad')
class MixingController {
  @Post()
  @RouteSchema({ body: CreateCat, querystring: { type: 'object' } })
  create () { return 'x' }
}
@Controller('bad')
class InsideController {
  @Post()
  @RouteSchema({ body: { type: 'object', properties: { cat: CreateCat as any } } })
  create () { return 'x' }
}
@Controller('bad')
class UncompilableController {
  @Post()
  @RouteSchema({ body: EvenCat })
  create () { return 'x' }
}
@Controller('bad')
class UncompilableResponseController {
  @Get()
  @RouteSchema({ response: { 200: EvenCat } })
  list () { return 'x' }
}

test('@RouteSchema DTO classes that cannot be honoured fail registration, naming the handler and the fix', async (t) => {
  const cases: Array<[Function, RegExp]> = [
    [MixingController, /^MixingController\.create: @RouteSchema\(\) gives DTO classes \(body\) and JSON schemas \(querystring\) for the request\. .*use DTO classes for all of its parts, or JSON schemas for all\.$/],
    [InsideController, /^InsideController\.create: @RouteSchema\(\) has a DTO class inside the JSON schema of "body"\./],
    [UncompilableController, /^UncompilableController\.create: @RouteSchema\(\) gives the DTO class EvenCat for "body", which cannot be compiled to a JSON schema: EvenCat\.age uses the constraint even .* Validate it with a ValidationPipe instead, or give a JSON schema\.$/],
    [UncompilableResponseController, /^UncompilableResponseController\.list: @RouteSchema\(\) gives the DTO class EvenCat for a response, which cannot be compiled to a JSON schema: /]
  ]
  for (const [controller, message] of cases) {
    @Module({ controllers: [controller as any] })
    class BadModule {}
    const app = Fastify()
    t.after(() => app.close())
    await assert.rejects(async () => { await app.register(decoratorPlugin, { module: BadModule }).ready() }, (error: any) => {
      assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
      assert.match(error.message, message)
      return true
    })
  }
})

class Cat { @IsString() name!: string }
const OtherCat = (() => {
  class Cat { @IsInt() n!: number }
  return Cat
})()

@Controller('names')
class NamesController {
  @Post('a') @RouteSchema({ body: Cat }) a () { return 'a' }
  @Post('b') @RouteSchema({ body: Cat }) b () { return 'b' }
  @Post('c') @RouteSchema({ body: OtherCat }) c () { return 'c' }
  @Post('d') @RouteSchema({ body: CreateCat }) d () { return 'd' }
}

@Module({ controllers: [NamesController] })
class NamesModule {}

test('@fastify/swagger lists each compiled DTO once as a component named by its class; clashing names get a suffix', async (t) => {
  const app = await build(t, NamesModule, {}, async (app) => {
    app.addSchema({ $id: 'CreateCat', type: 'object' })
    await app.register(swagger, {
      openapi: { info: { title: 'Cats', version: '1.0.0' } },
      refResolver: { buildLocalReference: (json: any, baseUri: unknown, fragment: unknown, i: number) => json.$id ?? `def-${i}` }
    })
  })
  const doc = app.swagger() as any
  assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['Cat', 'Cat_2', 'CreateCat', 'CreateCat_2'])
  assert.deepEqual(doc.components.schemas.Cat, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] })
  assert.deepEqual(doc.components.schemas.Cat_2.properties, { n: { type: 'integer' } })
  const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema
  assert.deepEqual([body('/names/a'), body('/names/b'), body('/names/c'), body('/names/d')].map((schema) => schema.$ref), [
    '#/components/schemas/Cat', '#/components/schemas/Cat', '#/components/schemas/Cat_2', '#/components/schemas/CreateCat_2'
  ])
  assert.deepEqual(doc.components.schemas.CreateCat_2.properties.owner, { type: 'object', nullable: true, properties: { name: { type: 'string' } }, required: ['name'] })
})

test('without a refResolver, @fastify/swagger titles the components with the class names', async (t) => {
  const app = await build(t, StrictModule, {}, (app) => app.register(swagger, { openapi: { info: { title: 'Cats', version: '1.0.0' } } }))
  const doc = app.swagger() as any
  assert.deepEqual(Object.values(doc.components.schemas).map((schema: any) => schema.title).sort(), ['CatQuery', 'CatView', 'CreateCat'])
  const create = doc.paths['/strict'].post
  assert.deepEqual(create.parameters, [{ schema: { type: 'string', nullable: true }, in: 'query', name: 'name', required: false }])
  assert.match(create.responses['201'].content['application/json'].schema.$ref, /^#\/components\/schemas\/def-\d$/)
})

test('two applications compile the same classes each for itself', async (t) => {
  const first = await build(t, StrictModule)
  const second = await build(t, StrictModule)
  for (const app of [first, second]) {
    assert.equal((await app.inject({ method: 'POST', url: '/strict', headers: json, payload: { name: 'Tom', age: 2 } })).statusCode, 201)
    assert.equal((await app.inject({ method: 'POST', url: '/strict', headers: json, payload: invalid })).statusCode, 400)
  }
})
