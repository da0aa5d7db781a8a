import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as nest from '@nestjs/common'
import type { FastifyReply } from 'fastify'
import {
  Catch, Controller, Get, HttpException, Module, NotFoundException, UseFilters, UseGuards,
  type ArgumentsHost, type ExceptionFilter
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

// A thrown @nestjs/common HttpException answers as the plugin's own, and @Catch() matches an
// HTTP exception class of either package.

const reply = (host: ArgumentsHost | nest.ArgumentsHost): FastifyReply => host.switchToHttp().getResponse<FastifyReply>()

@nest.Catch(nest.NotFoundException)
class NestNotFoundFilter implements nest.ExceptionFilter {
  catch (exception: nest.HttpException, host: nest.ArgumentsHost) { reply(host).code(410).send({ by: 'nest filter', status: exception.getStatus() }) }
}

@Catch(HttpException)
class PluginHttpFilter implements ExceptionFilter {
  catch (exception: HttpException, host: ArgumentsHost) { reply(host).code(299).send({ by: 'plugin filter', name: exception.constructor.name }) }
}

@nest.Catch(nest.HttpException)
class NestHttpFilter implements nest.ExceptionFilter {
  catch (exception: nest.HttpException, host: nest.ArgumentsHost) { reply(host).code(298).send({ by: 'nest http filter', status: exception.getStatus() }) }
}

@Controller('thrown')
class ThrowingController {
  @Get('not-found') notFound () { throw new nest.NotFoundException('no such cat') }
  @Get('bare') bare () { throw new nest.NotFoundException() }
  @Get('plain') plain () { throw new nest.HttpException('plain message', 400) }
  @Get('object') object () { throw new nest.HttpException({ custom: 1 }, 422) }
  @Get('teapot') teapot () { throw new nest.ImATeapotException() }
  @Get('described') described () { throw new nest.ForbiddenException('no', { cause: new Error('root'), description: 'Keep out' }) }
  @Get('list') list () { throw new nest.BadRequestException(['name must be a string', 'age must be a number']) }
  @Get('custom-object') customObject () { throw new nest.BadRequestException({ why: 'x' }) }
  @Get('object-with-cause') objectWithCause () { throw new nest.HttpException({ custom: 2 }, 409, { cause: new Error('root') }) }
  @Get('server') server () { throw new nest.InternalServerErrorException() }

  @Get('nest-filter/nest') @UseFilters(NestNotFoundFilter) nestFilterNest () { throw new nest.NotFoundException() }
  @Get('nest-filter/plugin') @UseFilters(NestNotFoundFilter) nestFilterPlugin () { throw new NotFoundException() }
  @Get('nest-filter/other') @UseFilters(NestNotFoundFilter) nestFilterOther () { throw new nest.BadRequestException('not for it') }
  @Get('plugin-filter/nest') @UseFilters(PluginHttpFilter) pluginFilterNest () { throw new nest.BadRequestException() }
  @Get('plugin-filter/error') @UseFilters(PluginHttpFilter) pluginFilterError () { throw new Error('not an HTTP exception') }
  @Get('guarded') @UseFilters(NestHttpFilter) @UseGuards({ canActivate: () => false }) guarded () { return 'never' }
}

@Module({ controllers: [ThrowingController] })
class ThrowingModule {}

test('a thrown @nestjs/common exception answers with its status and NestJS\'s body, unlogged', async (t) => {
  const logs: string[] = []
  const app = await build(t, ThrowingModule, {}, (app) => { app.log.error = ((...args: unknown[]) => { logs.push(String(args.at(-1))) }) as typeof app.log.error })
  const notFound = await app.inject('/thrown/not-found')
  assert.equal(notFound.statusCode, 404)
  assert.deepEqual(notFound.json(), { message: 'no such cat', error: 'Not Found', statusCode: 404 })
  assert.deepEqual((await app.inject('/thrown/bare')).json(), { message: 'Not Found', statusCode: 404 })
  const plain = await app.inject('/thrown/plain')
  assert.equal(plain.statusCode, 400)
  assert.deepEqual(plain.json(), { statusCode: 400, message: 'plain message', error: 'Bad Request' })
  const object = await app.inject('/thrown/object')
  assert.equal(object.statusCode, 422)
  assert.deepEqual(object.json(), { custom: 1 })
  assert.equal((await app.inject('/thrown/teapot')).statusCode, 418)
  assert.deepEqual(logs, [])
})

test('@nestjs/common exceptions with options, lists and objects: NestJS\'s exact bodies, key order included, the cause never sent', async (t) => {
  const logs: string[] = []
  const app = await build(t, ThrowingModule, {}, (app) => { app.log.error = ((...args: unknown[]) => { logs.push(String(args.at(-1))) }) as typeof app.log.error })
  const cases: Array<[string, number, string]> = [
    ['described', 403, '{"message":"no","error":"Keep out","statusCode":403}'],
    ['list', 400, '{"message":["name must be a string","age must be a number"],"error":"Bad Request","statusCode":400}'],
    ['custom-object', 400, '{"why":"x"}'],
    ['object-with-cause', 409, '{"custom":2}'],
    ['server', 500, '{"message":"Internal Server Error","statusCode":500}']
  ]
  for (const [path, status, body] of cases) {
    const res = await app.inject(`/thrown/${path}`)
    assert.equal(res.statusCode, status, path)
    assert.equal(res.body, body, path)
    assert.match(String(res.headers['content-type']), /^application\/json/, path)
  }
  assert.deepEqual(logs, [])
})

test('@Catch(TheirClass): a filter decorated with @nestjs/common catches its exceptions and the plugin\'s twins', async (t) => {
  const app = await build(t, ThrowingModule)
  assert.deepEqual((await app.inject('/thrown/nest-filter/nest')).json(), { by: 'nest filter', status: 404 })
  assert.deepEqual((await app.inject('/thrown/nest-filter/plugin')).json(), { by: 'nest filter', status: 404 })
  const other = await app.inject('/thrown/nest-filter/other')
  assert.equal(other.statusCode, 400)
  assert.deepEqual(other.json(), { message: 'not for it', error: 'Bad Request', statusCode: 400 })
})

test('@Catch(HttpException) of either package catches the HTTP exceptions of both, and nothing else', async (t) => {
  const app = await build(t, ThrowingModule)
  const caught = await app.inject('/thrown/plugin-filter/nest')
  assert.equal(caught.statusCode, 299)
  assert.deepEqual(caught.json(), { by: 'plugin filter', name: 'BadRequestException' })
  assert.equal((await app.inject('/thrown/plugin-filter/error')).statusCode, 500)
  // A guard's refusal is the plugin's ForbiddenException: NestJS's @Catch(HttpException) takes it.
  const guarded = await app.inject('/thrown/guarded')
  assert.equal(guarded.statusCode, 298)
  assert.deepEqual(guarded.json(), { by: 'nest http filter', status: 403 })
})
