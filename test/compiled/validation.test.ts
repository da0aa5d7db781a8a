// Runs on tsc output (emitDecoratorMetadata): ValidationPipe reads each parameter's design type.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator'
import { Type } from 'class-transformer'
import { Module, Controller, Get, Post, Param, Query, Body, UsePipes, ValidationPipe } from '../../plugin/index.js'
import type { ArgumentMetadata, PipeTransform } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

class Owner {
  @IsString() name!: string
}

class CreateCatDto {
  @IsString() name!: string
  @IsInt() @Min(0) age!: number
  @IsOptional() @ValidateNested() @Type(() => Owner) owner?: Owner
}

class ListQuery {
  @IsOptional() @Type(() => Number) @IsInt() limit?: number
}

const metatypes: Array<[string | undefined, unknown]> = []
const recorder: PipeTransform = {
  transform (value: unknown, metadata: ArgumentMetadata) { metatypes.push([metadata.data, metadata.metatype]); return value }
}

@Controller('cats')
class CatsController {
  @Post()
  create (@Body() cat: CreateCatDto) {
    return { dto: cat instanceof CreateCatDto, ownerDto: cat.owner === undefined || cat.owner instanceof Owner, cat }
  }

  @Get('list')
  list (@Query() query: ListQuery) { return { dto: query instanceof ListQuery, limit: query.limit ?? null } }

  @Get(':id')
  findOne (@Param('id') id: number, @Query('full') full: boolean, @Query('name') name: string) {
    return { id, idType: typeof id, full, name }
  }

  @Get('meta/:id')
  @UsePipes(recorder)
  meta (@Param('id') id: number, @Body() cat: CreateCatDto, @Query('q') q: string) { return 'ok' }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

test('pipes receive the parameter\'s design type as metatype', async (t) => {
  const app = await build(t, CatsModule)
  metatypes.length = 0
  assert.equal((await app.inject('/cats/meta/1?q=x')).body, 'ok')
  assert.deepEqual(metatypes, [['id', Number], [undefined, CreateCatDto], ['q', String]])
})

test('ValidationPipe({ transform: true }) converts @Param(\'id\') id: number to a number and bodies to DTO instances', async (t) => {
  const app = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ transform: true })] })
  assert.deepEqual((await app.inject('/cats/12?full=true&name=7')).json(), { id: 12, idType: 'number', full: true, name: '7' })
  assert.deepEqual((await app.inject('/cats/12')).json(), { id: 12, idType: 'number' })
  const created = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 2, owner: { name: 'Ann' } } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { dto: true, ownerDto: true, cat: { name: 'Tom', age: 2, owner: { name: 'Ann' } } })
  assert.deepEqual((await app.inject('/cats/list?limit=5')).json(), { dto: true, limit: 5 })
})

test('without transform the handler gets the plain value, still validated', async (t) => {
  const app = await build(t, CatsModule, { globalPipes: [ValidationPipe] })
  assert.deepEqual((await app.inject('/cats/12')).json(), { id: '12', idType: 'string' })
  const created = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 2 } })
  assert.deepEqual(created.json(), { dto: false, ownerDto: true, cat: { name: 'Tom', age: 2 } })
})

test('invalid DTOs give 400 with every constraint message, nested ones with their path', async (t) => {
  const app = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ transform: true })] })
  const response = await app.inject({ method: 'POST', url: '/cats', payload: { name: 3, age: -1, owner: { name: 4 } } })
  assert.equal(response.statusCode, 400)
  assert.deepEqual(response.json(), {
    statusCode: 400,
    message: ['name must be a string', 'age must not be less than 0', 'owner.name must be a string'],
    error: 'Bad Request'
  })
  const query = await app.inject('/cats/list?limit=x')
  assert.equal(query.statusCode, 400)
  assert.deepEqual(query.json().message, ['limit must be an integer number'])
})

test('whitelist and forbidNonWhitelisted apply to DTO bodies', async (t) => {
  const stripping = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ whitelist: true, transform: true })] })
  const stripped = await stripping.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 2, isAdmin: true } })
  assert.deepEqual(stripped.json().cat, { name: 'Tom', age: 2 })

  const strict = await build(t, CatsModule, { globalPipes: [new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })] })
  const rejected = await strict.inject({ method: 'POST', url: '/cats', payload: { name: 'Tom', age: 2, isAdmin: true } })
  assert.equal(rejected.statusCode, 400)
  assert.deepEqual(rejected.json(), { statusCode: 400, message: ['property isAdmin should not exist'], error: 'Bad Request' })
})

class PatchCatDto {
  @IsOptional() @IsString() name?: string
  @IsOptional() @IsInt() age?: number
}

@Controller('patch')
class PatchController {
  @Post() patch (@Body() patch: PatchCatDto) { return { patch } }
  @Get(':id') byId (@Param('id') id: PatchCatDto, @Query('filter') filter: PatchCatDto) { return { id, filter } }
}

@Module({ controllers: [PatchController] })
class PatchModule {}

test('a DTO of optional fields refuses arrays and primitives instead of passing them on unvalidated', async (t) => {
  for (const transform of [false, true]) {
    const app = await build(t, PatchModule, { globalPipes: [new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform })] })
    const array = await app.inject({ method: 'POST', url: '/patch', payload: '[{"name":5,"isAdmin":true}]', headers: { 'content-type': 'application/json' } })
    assert.deepEqual([array.statusCode, array.json()], [400, { statusCode: 400, message: ['property 0 should not exist'], error: 'Bad Request' }])
    for (const payload of ['"Tom"', '5', 'false', 'null']) {
      const response = await app.inject({ method: 'POST', url: '/patch', payload, headers: { 'content-type': 'application/json' } })
      assert.deepEqual([response.statusCode, response.json().message], [400, ['body must be an object']], payload)
    }
    const param = await app.inject('/patch/7')
    assert.deepEqual([param.statusCode, param.json().message], [400, ['id must be an object']])
    assert.equal((await app.inject({ method: 'POST', url: '/patch', payload: { name: 'Tom' } })).statusCode, 201)
  }
})
