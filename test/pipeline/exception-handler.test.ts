import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  decoratorPlugin, Module, Controller, Get, Post, Body, Injectable, Inject, Scope, UseFilters, UseGuards, Catch, RouteSchema,
  HttpException, BadRequestException, NotFoundException, ConflictException
} from '../../plugin/index.js'
import type { ArgumentsHost, ExceptionFilter, Request, Response } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

// A filter that answers with its name, so tests see which one took the exception.
function named (name: string, ...types: Function[]) {
  @Catch(...types)
  class Named implements ExceptionFilter {
    catch (exception: unknown, host: ArgumentsHost) {
      const reply = host.switchToHttp().getResponse<Response>()
      const status = exception instanceof HttpException ? exception.getStatus() : 500
      reply.code(status).send({ by: name, message: (exception as Error).message })
    }
  }
  Object.defineProperty(Named, 'name', { value: name })
  return Named
}

const Handler = named('handler')
const HandlerNotFound = named('handler-not-found', NotFoundException)
const First = named('first')
const Second = named('second')
const ControllerHttp = named('controller-http', HttpException)
const Global1 = named('global-1')
const Global2 = named('global-2')

@Controller('near')
@UseFilters(ControllerHttp)
class NearController {
  @Get('handler') @UseFilters(Handler) handler () { throw new BadRequestException('h') }
  @Get('skips') @UseFilters(HandlerNotFound) skips () { throw new BadRequestException('to controller') }
  @Get('matches') @UseFilters(HandlerNotFound) matches () { throw new NotFoundException('nf') }
  @Get('controller') controller () { throw new ConflictException('c') }
  @Get('plain-error') plainError () { throw new Error('not http') }
  @Get('pair') @UseFilters(First, Second) pair () { throw new BadRequestException('p') }
}

@Controller('far')
class FarController {
  @Get() far () { throw new Error('far') }
}

@Module({ controllers: [NearController, FarController] })
class NearModule {}

test('the nearest matching filter wins: handler, then controller, then global', async (t) => {
  const app = await build(t, NearModule, { globalFilters: [Global1, Global2] })
  const by = async (url: string) => (await app.inject(url)).json()
  assert.deepEqual(await by('/near/handler'), { by: 'handler', message: 'h' })
  assert.deepEqual(await by('/near/skips'), { by: 'controller-http', message: 'to controller' })
  assert.deepEqual(await by('/near/matches'), { by: 'handler-not-found', message: 'nf' })
  assert.deepEqual(await by('/near/controller'), { by: 'controller-http', message: 'c' })
  // @Catch(HttpException) does not take a plain Error: the globals do, the last given first.
  assert.deepEqual(await by('/near/plain-error'), { by: 'global-2', message: 'not http' })
  assert.deepEqual(await by('/far'), { by: 'global-2', message: 'far' })
  // Within @UseFilters(A, B), B is tried first.
  assert.deepEqual(await by('/near/pair'), { by: 'second', message: 'p' })
  assert.equal((await app.inject('/near/controller')).statusCode, 409)
})

test('no matching filter: the built-in answer', async (t) => {
  const app = await build(t, NearModule)
  const plain = await app.inject('/near/plain-error')
  assert.equal(plain.statusCode, 500)
  assert.deepEqual(plain.json(), { statusCode: 500, message: 'Internal server error' })
  assert.deepEqual((await app.inject('/far')).json(), { statusCode: 500, message: 'Internal server error' })
})

@Controller('host')
class HostController {
  @Get()
  @UseFilters({
    catch (exception: unknown, host: ArgumentsHost) {
      const http = host.switchToHttp()
      const request = http.getRequest<Request>()
      const args = host.getArgs()
      http.getResponse<Response>().code(400).send({
        type: host.getType(),
        url: request.url,
        args: args.length,
        sameRequest: args[0] === request && host.getArgByIndex(0) === request,
        sameReply: args[1] === http.getResponse(),
        next: http.getNext() ?? null,
        exception: (exception as Error).message
      })
    }
  })
  get () { throw new Error('x') }
}

@Module({ controllers: [HostController] })
class HostModule {}

test('ArgumentsHost.switchToHttp() gives the Fastify request and reply', async (t) => {
  const app = await build(t, HostModule)
  assert.deepEqual((await app.inject('/host?a=1')).json(), { type: 'http', url: '/host?a=1', args: 3, sameRequest: true, sameReply: true, next: null, exception: 'x' })
})

@Catch()
class Everything implements ExceptionFilter {
  catch (exception: any, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().code(299).send({ caught: exception.code ?? exception.message, status: exception.statusCode ?? null })
  }
}

@Controller('ctx')
@UseFilters(Everything)
class ContextController {
  @Get() get () { return 'ok' }

  @Post('schema')
  @RouteSchema({ body: { type: 'object', required: ['a'] } })
  schema (@Body() body: unknown) { return body }

  @Post('guarded')
  @UseGuards({ canActivate: () => false })
  guarded () { return 'never' }
}

@Controller('method')
class MethodController {
  @Get() @UseFilters(Everything) get () { return 'ok' }

  @Post('schema')
  @UseFilters(Everything)
  @RouteSchema({ body: { type: 'object', required: ['a'] } })
  schema (@Body() body: unknown) { return body }
}

@Controller('global')
class GlobalController {
  @Post('schema')
  @RouteSchema({ body: { type: 'object', required: ['a'] } })
  schema (@Body() body: unknown) { return body }
}

@Module({ controllers: [ContextController, MethodController, GlobalController] })
class ContextModule {}

test('filters see errors from the app\'s hooks, schema validation, body parsing and guards, at every level', async (t) => {
  const app = await build(t, ContextModule, { globalFilters: [Everything] }, (app) => {
    app.addHook('onRequest', async (request) => { if (request.headers['x-fail'] === 'onRequest') throw new ConflictException('hook said no') })
    app.addHook('preHandler', async (request) => { if (request.headers['x-fail'] === 'preHandler') throw new Error('late hook') })
  })
  for (const base of ['/ctx', '/method']) {
    assert.deepEqual((await app.inject({ url: base, headers: { 'x-fail': 'onRequest' } })).json(), { caught: 'hook said no', status: null }, base)
    assert.deepEqual((await app.inject({ url: base, headers: { 'x-fail': 'preHandler' } })).json(), { caught: 'late hook', status: null }, base)
    assert.equal((await app.inject(base)).body, 'ok')
  }
  for (const base of ['/ctx', '/method', '/global']) {
    const invalid = await app.inject({ method: 'POST', url: `${base}/schema`, payload: {} })
    assert.equal(invalid.statusCode, 299, base)
    assert.deepEqual(invalid.json(), { caught: 'FST_ERR_VALIDATION', status: 400 }, base)
    const malformed = await app.inject({ method: 'POST', url: `${base}/schema`, payload: '{', headers: { 'content-type': 'application/json' } })
    assert.deepEqual(malformed.json(), { caught: 'FST_ERR_CTP_INVALID_JSON_BODY', status: 400 }, base)
  }
  assert.deepEqual((await app.inject({ method: 'POST', url: '/ctx/guarded' })).json(), { caught: 'Forbidden resource', status: null })
})

function logged (): { app: FastifyInstance, errors: Array<Record<string, any>> } {
  const errors: Array<Record<string, any>> = []
  const app = Fastify({
    logger: {
      level: 'error',
      stream: { write (line: string) { errors.push(JSON.parse(line)) } }
    }
  })
  return { app, errors }
}

@Controller('broken')
class BrokenFilters {
  @Get('throws') @UseFilters({ catch () { throw new Error('filter bug') } }) throws () { throw new Error('original') }
  @Get('rejects') @UseFilters({ catch: async () => { throw new Error('async filter bug') } }) rejects () { throw new Error('original') }
  @Get('rejects-late') @UseFilters({ catch: async () => { await new Promise((resolve) => setImmediate(resolve)); throw new Error('late bug') } }) rejectsLate () { throw new Error('original') }
  @Get('http') @UseFilters({ catch () { throw new ConflictException('from filter') } }) http () { throw new Error('original') }
  @Get('silent') @UseFilters({ catch () {} }) silent () { throw new NotFoundException('cat missing') }
  @Get('silent-plain') @UseFilters({ catch: async () => {} }) silentPlain () { throw new Error('unanswered') }
  @Get('sent-then-throws')
  @UseFilters({ catch (e: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse<Response>().code(202).send('answered'); throw new Error('after send') } })
  sentThenThrows () { throw new Error('original') }

  @Get('unmatched') @UseFilters(HandlerNotFound) unmatched () { throw new BadRequestException('no filter takes it') }
  @Get('ok') ok () { return 'still serving' }
}

@Module({ controllers: [BrokenFilters] })
class BrokenModule {}

test('a filter that throws or rejects gives a 500 and one log line, never a hang', async (t) => {
  const { app, errors } = logged()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: BrokenModule })
  for (const [url, message] of [['/broken/throws', 'filter bug'], ['/broken/rejects', 'async filter bug'], ['/broken/rejects-late', 'late bug']]) {
    errors.length = 0
    const response = await app.inject(url)
    assert.equal(response.statusCode, 500, url)
    assert.deepEqual(response.json(), { statusCode: 500, message: 'Internal server error' }, url)
    assert.equal(errors.length, 1, url)
    assert.equal(errors[0].err.message, message)
    assert.match(errors[0].msg, /Exception filter .* threw/)
  }
  errors.length = 0
  const http = await app.inject('/broken/http')
  assert.equal(http.statusCode, 409)
  assert.deepEqual(http.json(), { statusCode: 409, message: 'from filter', error: 'Conflict' })
  const sent = await app.inject('/broken/sent-then-throws')
  assert.equal(sent.statusCode, 202)
  assert.equal(sent.body, 'answered')
  assert.equal(errors.length, 0)
  assert.equal((await app.inject('/broken/ok')).body, 'still serving')
})

test('a filter that does not answer falls back to the built-in answer', async (t) => {
  const { app, errors } = logged()
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: BrokenModule })
  const silent = await app.inject('/broken/silent')
  assert.equal(silent.statusCode, 404)
  assert.deepEqual(silent.json(), { statusCode: 404, message: 'cat missing', error: 'Not Found' })
  assert.equal(errors.length, 0)
  const plain = await app.inject('/broken/silent-plain')
  assert.equal(plain.statusCode, 500)
  assert.deepEqual(plain.json(), { statusCode: 500, message: 'Internal server error' })
  assert.equal(errors.length, 1)
  assert.equal(errors[0].err.message, 'unanswered')
})

test('a filter\'s answer is sent once, with its status, when the app has async onSend hooks still running', async (t) => {
  for (const module of [NearModule, BrokenModule]) {
    const { app, errors } = logged()
    t.after(() => app.close())
    // The reply is not yet sent when the filter returns: the hook is still at work.
    app.addHook('onSend', async (request, reply, payload) => {
      await new Promise((resolve) => setTimeout(resolve, 2))
      return payload
    })
    await app.register(decoratorPlugin, { module, globalFilters: module === NearModule ? [new Global1()] : [] })
    const cases: Array<[string, number, unknown]> = module === NearModule
      ? [
          ['/near/handler', 400, { by: 'handler', message: 'h' }],
          ['/near/plain-error', 500, { by: 'global-1', message: 'not http' }],
          ['/far', 500, { by: 'global-1', message: 'far' }]
        ]
      : [
          ['/broken/sent-then-throws', 202, 'answered'],
          ['/broken/silent', 404, { statusCode: 404, message: 'cat missing', error: 'Not Found' }],
          ['/broken/http', 409, { statusCode: 409, message: 'from filter', error: 'Conflict' }],
          ['/broken/unmatched', 400, { statusCode: 400, message: 'no filter takes it', error: 'Bad Request' }]
        ]
    for (const [url, status, body] of cases) {
      errors.length = 0
      const response = await app.inject(url)
      assert.equal(response.statusCode, status, url)
      assert.deepEqual(typeof body === 'string' ? response.body : response.json(), body, url)
      // Let a second send, if any, reach the log.
      await new Promise((resolve) => setTimeout(resolve, 10))
      assert.deepEqual(errors, [], url)
    }
  }
})

@Injectable()
class Messages { readonly prefix = 'sorry: ' }

let filtersBuilt = 0
@Injectable({ scope: Scope.REQUEST })
@Catch(HttpException)
class ScopedFilter implements ExceptionFilter {
  readonly id = ++filtersBuilt
  constructor (@Inject(Messages) private readonly messages: Messages) {}
  catch (exception: HttpException, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().code(exception.getStatus()).send({ message: this.messages.prefix + exception.message, filter: this.id })
  }
}

@Controller('di')
@UseFilters(ScopedFilter)
class DiController {
  @Get() get () { throw new BadRequestException('bad') }
  @Get('plain') plain () { throw new Error('plain') }
}

@Module({ controllers: [DiController], providers: [Messages] })
class DiModule {}

test('filter classes are resolved through DI, request-scoped ones per request, with their @Catch types', async (t) => {
  const app = await build(t, DiModule)
  filtersBuilt = 0
  assert.deepEqual((await app.inject('/di')).json(), { message: 'sorry: bad', filter: 1 })
  assert.deepEqual((await app.inject('/di')).json(), { message: 'sorry: bad', filter: 2 })
  assert.equal((await app.inject('/di/plain')).statusCode, 500)
  assert.equal(filtersBuilt, 2)
})

// What the other build of the package (or NestJS) throws: no instance of this build's classes.
const exceptionClass = Symbol.for('fastify-decorator-plugin.exceptionClass')
class TwinHttpException extends Error {
  constructor (readonly response: unknown, readonly status: number) { super(String(response)) }
  getStatus () { return this.status }
  getResponse () { return this.response }
}
Object.defineProperty(TwinHttpException, exceptionClass, { value: 'HttpException' })
class TwinNotFoundException extends TwinHttpException {
  constructor (message: string) { super(message, 404) }
}
Object.defineProperty(TwinNotFoundException, exceptionClass, { value: 'NotFoundException' })
class MissingCat extends TwinNotFoundException {}

test('any thrown object with getStatus() and getResponse() answers as an HttpException', async (t) => {
  @Controller('duck')
  class Duck {
    @Get('string') string () { throw { getStatus: () => 418, getResponse: () => 'short and stout' } } // eslint-disable-line no-throw-literal
    @Get('object') object () { throw new TwinHttpException({ statusCode: 409, reason: 'taken' }, 409) }
    @Get('array') array () { throw new TwinHttpException(['a is wrong', 'b is wrong'], 400) }
  }
  @Module({ controllers: [Duck] })
  class AppModule {}
  const app = await build(t, AppModule)
  const teapot = await app.inject('/duck/string')
  assert.equal(teapot.statusCode, 418)
  assert.deepEqual(teapot.json(), { statusCode: 418, message: 'short and stout', error: 'I\'m a teapot' })
  const conflict = await app.inject('/duck/object')
  assert.equal(conflict.statusCode, 409)
  assert.deepEqual(conflict.json(), { statusCode: 409, reason: 'taken' })
  assert.deepEqual((await app.inject('/duck/array')).json(), { statusCode: 400, message: ['a is wrong', 'b is wrong'], error: 'Bad Request' })
})

test('@Catch() with a class of the package also catches that class of the other build, and its subclasses', async (t) => {
  const NotFound = named('not-found', NotFoundException)
  const Http = named('http', HttpException)
  const BadRequest = named('bad-request', BadRequestException)
  @Controller('twins')
  class Twins {
    @Get('missing') @UseFilters(Http, NotFound) missing () { throw new MissingCat('no cat') }
    @Get('conflict') @UseFilters(NotFound, Http) conflict () { throw new TwinHttpException('taken', 409) }
    @Get('skipped') @UseFilters(BadRequest) skipped () { throw new MissingCat('no cat') }
  }
  @Module({ controllers: [Twins] })
  class AppModule {}
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/twins/missing')).json(), { by: 'not-found', message: 'no cat' })
  assert.deepEqual((await app.inject('/twins/conflict')).json(), { by: 'http', message: 'taken' })
  const skipped = await app.inject('/twins/skipped')
  assert.equal(skipped.statusCode, 404)
  assert.deepEqual(skipped.json(), { statusCode: 404, message: 'no cat', error: 'Not Found' })
})
