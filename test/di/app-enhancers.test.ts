import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyRequest } from 'fastify'
import {
  Module, Controller, Get, Param, Query, Injectable, Inject, Scope, REQUEST, Catch, UseFilters, UseGuards, UsePipes,
  ForbiddenException, NotFoundException, UnauthorizedException, APP_GUARD, APP_PIPE, APP_INTERCEPTOR, APP_FILTER,
  type ArgumentsHost, type CallHandler, type CanActivate, type ExceptionFilter, type ExecutionContext,
  type NestInterceptor, type OnModuleInit, type PipeTransform
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

test('APP_* tokens are NestJS\'s strings', () => {
  assert.deepEqual([APP_GUARD, APP_PIPE, APP_INTERCEPTOR, APP_FILTER], ['APP_GUARD', 'APP_PIPE', 'APP_INTERCEPTOR', 'APP_FILTER'])
})

@Controller('cats')
class CatsController {
  @Get(':id') one (@Param('id') id: string) { return { id } }
}
@Module({ controllers: [CatsController] })
class CatsModule {}

test('an APP_GUARD declared in a feature module guards every route, built through DI in that module', async (t) => {
  @Injectable() class Tokens { valid (token: unknown) { return token === 'secret' } }
  @Injectable()
  class AuthGuard implements CanActivate {
    constructor (@Inject(Tokens) private readonly tokens: Tokens) {}
    canActivate (ctx: ExecutionContext) {
      if (!this.tokens.valid(ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization)) throw new UnauthorizedException()
      return true
    }
  }
  @Module({ providers: [Tokens, { provide: APP_GUARD, useClass: AuthGuard }] })
  class AuthModule {}
  @Module({ imports: [AuthModule, CatsModule] })
  class AppModule {}

  const app = await build(t, AppModule)
  const refused = await app.inject('/cats/1')
  assert.equal(refused.statusCode, 401)
  assert.deepEqual(refused.json(), { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  const allowed = await app.inject({ url: '/cats/1', headers: { authorization: 'secret' } })
  assert.deepEqual(allowed.json(), { id: '1' })
})

test('APP_PIPE, APP_INTERCEPTOR and APP_FILTER apply to every route; useValue, useFactory and useExisting work too', async (t) => {
  class Upper implements PipeTransform { transform (value: unknown) { return typeof value === 'string' ? value.toUpperCase() : value } }
  @Injectable()
  class Wrap implements NestInterceptor {
    constructor (@Inject('KEY') private readonly key: string) {}
    async intercept (_ctx: ExecutionContext, next: CallHandler) { return { [this.key]: await next.handle() } }
  }
  @Injectable()
  @Catch(NotFoundException)
  class NotFoundAsTeapot implements ExceptionFilter {
    catch (_exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(418).send({ teapot: true }) }
  }
  @Controller('dogs')
  class DogsController {
    @Get(':name') one (@Param('name') name: string) {
      if (name === 'REX') throw new NotFoundException()
      return name
    }
  }
  @Module({
    controllers: [DogsController],
    providers: [
      NotFoundAsTeapot,
      { provide: 'KEY', useValue: 'data' },
      { provide: APP_PIPE, useValue: new Upper() },
      { provide: APP_INTERCEPTOR, useFactory: (key: string) => new Wrap(key), inject: ['KEY'] },
      { provide: APP_FILTER, useExisting: NotFoundAsTeapot }
    ]
  })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/dogs/fido')).json(), { data: 'FIDO' })
  const missing = await app.inject('/dogs/rex')
  assert.equal(missing.statusCode, 418)
  assert.deepEqual(missing.json(), { teapot: true })
})

test('an APP_FILTER made by a factory or named by useExisting catches only its @Catch() types', async (t) => {
  @Catch(NotFoundException)
  class NotFoundFilter implements ExceptionFilter {
    catch (_exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(410).send({ by: 'existing' }) }
  }
  @Catch(UnauthorizedException)
  class UnauthorizedFilter implements ExceptionFilter {
    catch (_exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(407).send({ by: 'factory' }) }
  }
  @Controller('fail')
  class Failing {
    @Get(':what') fail (@Param('what') what: string) {
      if (what === 'missing') throw new NotFoundException()
      if (what === 'anonymous') throw new UnauthorizedException()
      throw new ForbiddenException()
    }
  }
  @Module({
    controllers: [Failing],
    providers: [NotFoundFilter, { provide: APP_FILTER, useExisting: NotFoundFilter }, { provide: APP_FILTER, useFactory: () => new UnauthorizedFilter() }]
  })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/fail/missing')).json(), { by: 'existing' })
  assert.deepEqual((await app.inject('/fail/anonymous')).json(), { by: 'factory' })
  const forbidden = await app.inject('/fail/other')
  assert.equal(forbidden.statusCode, 403)
  assert.deepEqual(forbidden.json(), { statusCode: 403, message: 'Forbidden', error: 'Forbidden' })
})

test('several APP_GUARDs run in module scan order, before the globalGuards option; request-scoped ones run last', async (t) => {
  const order: string[] = []
  const guard = (name: string) => {
    @Injectable()
    class Recording implements CanActivate {
      canActivate () { order.push(name); return true }
    }
    Object.defineProperty(Recording, 'name', { value: name })
    return Recording
  }
  @Injectable({ scope: Scope.REQUEST })
  class PerRequestGuard implements CanActivate {
    constructor (@Inject(REQUEST) private readonly request: FastifyRequest) {}
    canActivate () { order.push(`request ${this.request.url}`); return true }
  }
  const Root = guard('root')
  const Feature1 = guard('feature 1')
  const Feature2 = guard('feature 2')
  const Option = guard('option')
  const ControllerGuard = guard('controller')
  @Module({ providers: [{ provide: APP_GUARD, useClass: PerRequestGuard }, { provide: APP_GUARD, useClass: Feature1 }, { provide: APP_GUARD, useClass: Feature2 }] })
  class FeatureModule {}
  @Controller('guarded') @UseGuards(ControllerGuard)
  class Guarded { @Get() get () { return 'ok' } }
  @Module({ imports: [FeatureModule], controllers: [Guarded], providers: [{ provide: APP_GUARD, useClass: Root }] })
  class AppModule {}

  const app = await build(t, AppModule, { globalGuards: [Option] })
  assert.equal((await app.inject('/guarded')).body, 'ok')
  assert.deepEqual(order, ['root', 'feature 1', 'feature 2', 'option', 'request /guarded', 'controller'])
})

test('interceptors and filters keep the same order: APP_* first, then the options, then request-scoped APP_*', async (t) => {
  const order: string[] = []
  const interceptor = (name: string, scope: Scope = Scope.DEFAULT) => {
    @Injectable({ scope })
    class Recording implements NestInterceptor {
      async intercept (_ctx: ExecutionContext, next: CallHandler) { order.push(name); return await next.handle() }
    }
    return Recording
  }
  const filter = (name: string, scope: Scope = Scope.DEFAULT) => {
    @Injectable({ scope })
    @Catch()
    class Answering implements ExceptionFilter {
      catch (_exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(409).send({ filter: name }) }
    }
    return Answering
  }
  @Controller('boom')
  class Boom { @Get() get () { throw new ForbiddenException() } }
  @Module({
    controllers: [Boom],
    providers: [
      { provide: APP_INTERCEPTOR, useClass: interceptor('app') },
      { provide: APP_INTERCEPTOR, useClass: interceptor('app per request', Scope.REQUEST) },
      { provide: APP_FILTER, useClass: filter('app') }
    ]
  })
  class AppModule {}

  const app = await build(t, AppModule, { globalInterceptors: [interceptor('option')], globalFilters: [filter('option')] })
  const res = await app.inject('/boom')
  assert.deepEqual(order, ['app', 'option', 'app per request'])
  // Filters are tried last-declared first: the option's filter before the APP_FILTER.
  assert.deepEqual(res.json(), { filter: 'option' })

  @Module({ controllers: [Boom], providers: [{ provide: APP_FILTER, useClass: filter('app') }, { provide: APP_FILTER, useClass: filter('app per request', Scope.REQUEST) }] })
  class ScopedFilterModule {}
  const scoped = await build(t, ScopedFilterModule, { globalFilters: [filter('option')] })
  assert.deepEqual((await scoped.inject('/boom')).json(), { filter: 'app per request' })
})

test('pipes too: APP_PIPEs in module scan order, the globalPipes option, request-scoped APP_PIPEs, then controller, method and parameter pipes', async (t) => {
  const pipe = (name: string, scope: Scope = Scope.DEFAULT) => {
    @Injectable({ scope })
    class Appending implements PipeTransform { transform (value: unknown) { return `${String(value)} > ${name}` } }
    return Appending
  }
  @Controller('piped')
  @UsePipes(pipe('controller'))
  class Piped { @Get() @UsePipes(pipe('method')) get (@Query('v', pipe('parameter')) v: string) { return v } }
  @Module({ providers: [{ provide: APP_PIPE, useClass: pipe('feature') }] })
  class FeatureModule {}
  @Module({ imports: [FeatureModule], controllers: [Piped], providers: [{ provide: APP_PIPE, useClass: pipe('root per request', Scope.REQUEST) }, { provide: APP_PIPE, useClass: pipe('root') }] })
  class AppModule {}

  const app = await build(t, AppModule, { globalPipes: [pipe('option')] })
  assert.equal((await app.inject('/piped?v=x')).body, 'x > root > feature > option > root per request > controller > method > parameter')
})

test('a request-scoped APP_INTERCEPTOR is built for every request; a singleton one once, with lifecycle hooks', async (t) => {
  let perRequest = 0
  let singleton = 0
  const inits: string[] = []
  @Injectable({ scope: Scope.REQUEST })
  class Stamp implements NestInterceptor {
    readonly id = ++perRequest
    async intercept (_ctx: ExecutionContext, next: CallHandler) { return `${String(await next.handle())} #${this.id}` }
  }
  @Injectable()
  class Once implements NestInterceptor, OnModuleInit {
    constructor () { singleton++ }
    onModuleInit () { inits.push('Once') }
    async intercept (_ctx: ExecutionContext, next: CallHandler) { return await next.handle() }
  }
  @Controller('stamp')
  class Stamped { @Get() get () { return 'hello' } }
  @Module({ controllers: [Stamped], providers: [{ provide: APP_INTERCEPTOR, useClass: Stamp }, { provide: APP_INTERCEPTOR, useClass: Once }] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject('/stamp')).body, 'hello #1')
  assert.equal((await app.inject('/stamp')).body, 'hello #2')
  assert.equal(singleton, 1)
  assert.deepEqual(inits, ['Once'])
})

test('an APP_GUARD with useExisting is the same instance as the provider it names', async (t) => {
  @Injectable()
  class CountingGuard implements CanActivate {
    calls = 0
    canActivate () { this.calls++; return true }
  }
  @Module({ imports: [CatsModule], providers: [CountingGuard, { provide: APP_GUARD, useExisting: CountingGuard }] })
  class AppModule {}

  const app = await build(t, AppModule)
  await app.inject('/cats/1')
  await app.inject('/cats/2')
  assert.equal(app.container.get(CountingGuard).calls, 2)
})

test('APP_* providers are not injectable by their token, and several in one module are all kept', async () => {
  class AllowAll implements CanActivate { canActivate () { return true } }
  @Injectable()
  class WantsGuard { constructor (@Inject(APP_GUARD) readonly guard: unknown) {} }
  @Module({ providers: [{ provide: APP_GUARD, useValue: new AllowAll() }, WantsGuard] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.match(error.message, /^Cannot resolve "APP_GUARD" at index \[0\] of WantsGuard in module AppModule\./)
})

test('an APP_* provider that is not the right kind of enhancer fails, naming the module and the fix', async () => {
  @Injectable() class NotAGuard { check () { return true } }
  @Module({ providers: [{ provide: APP_GUARD, useClass: NotAGuard }] })
  class ClassModule {}
  const byClass = await registrationError({ module: ClassModule })
  assert.equal(byClass.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.equal(byClass.message, 'ClassModule\'s providers[0] (APP_GUARD, useClass NotAGuard): a global guard needs a canActivate() method, and NotAGuard has none.')

  @Module({ providers: [{ provide: APP_PIPE, useValue: { pipe: true } }] })
  class ValueModule {}
  const byValue = await registrationError({ module: ValueModule })
  assert.equal(byValue.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.equal(byValue.message, 'ValueModule\'s providers[0] (APP_PIPE, useValue): a global pipe needs a transform() method, and an object with keys [pipe] has none.')

  @Module({ providers: [{ provide: APP_INTERCEPTOR, useFactory: () => ({}) }] })
  class FactoryModule {}
  const byFactory = await registrationError({ module: FactoryModule })
  assert.equal(byFactory.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.equal(byFactory.message, 'FactoryModule\'s providers[0] (APP_INTERCEPTOR, useFactory): a global interceptor needs an intercept() method, and the factory gave an object with keys [] with none.')
})

test('APP_* guards apply to routes the controller-level filters also see', async (t) => {
  @Injectable() class Deny implements CanActivate { canActivate () { return false } }
  @Catch(ForbiddenException)
  class ForbiddenAsNotFound implements ExceptionFilter {
    catch (_exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse().code(404).send({ hidden: true }) }
  }
  @Controller('secret') @UseFilters(ForbiddenAsNotFound)
  class Secret { @Get() get () { return 'secret' } }
  @Module({ controllers: [Secret], providers: [{ provide: APP_GUARD, useClass: Deny }] })
  class AppModule {}

  const app = await build(t, AppModule)
  const res = await app.inject('/secret')
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { hidden: true })
})
