import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { from, map, of, catchError, throwError, type Observable } from 'rxjs'
import {
  decoratorPlugin, Module, Controller, Get, Param, Injectable, Inject, Scope, REQUEST, Reflector, SetMetadata,
  UseGuards, UsePipes, UseInterceptors, UseFilters, BadRequestException, NotFoundException
} from '../../plugin/index.js'
import type { ArgumentsHost, CallHandler, CanActivate, ExceptionFilter, ExecutionContext, NestInterceptor, ObservableLike, PipeTransform, Request } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const Roles = (...roles: string[]) => SetMetadata('roles', roles)

@Injectable()
class UsersService {
  rolesOf (name: string | undefined): string[] { return name === 'root' ? ['admin'] : ['user'] }
}

// A class guard resolved through DI: a provider and the Reflector are injected.
@Injectable()
class RolesGuard implements CanActivate {
  constructor (@Inject(Reflector) private readonly reflector: Reflector, @Inject(UsersService) private readonly users: UsersService) {}
  canActivate (ctx: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[] | undefined>('roles', [ctx.getHandler(), ctx.getClass()])
    if (!required) return true
    const roles = this.users.rolesOf(ctx.switchToHttp().getRequest<Request>().headers['x-user'] as string)
    return required.some((role) => roles.includes(role))
  }
}

@Controller('admin')
@Roles('admin')
class AdminController {
  @Get() dashboard () { return 'dashboard' }
  @Get('public') @Roles('user') open () { return 'open' }
}

@Module({ controllers: [AdminController], providers: [UsersService] })
class AdminModule {}

test('a guard class is built through DI with a provider and the Reflector, from a controller or as a global', async (t) => {
  @Controller('local') @UseGuards(RolesGuard) @Roles('admin')
  class LocalController { @Get() get () { return 'local' } }
  @Module({ controllers: [LocalController], providers: [UsersService] })
  class LocalModule {}

  const local = await build(t, LocalModule)
  assert.equal((await local.inject({ url: '/local', headers: { 'x-user': 'root' } })).body, 'local')
  assert.equal((await local.inject({ url: '/local', headers: { 'x-user': 'ann' } })).statusCode, 403)

  const global = await build(t, AdminModule, { globalGuards: [RolesGuard] })
  assert.equal((await global.inject({ url: '/admin', headers: { 'x-user': 'root' } })).body, 'dashboard')
  const denied = await global.inject({ url: '/admin', headers: { 'x-user': 'ann' } })
  assert.equal(denied.statusCode, 403)
  assert.deepEqual(denied.json(), { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
  assert.equal((await global.inject({ url: '/admin/public', headers: { 'x-user': 'ann' } })).body, 'open')
  // One guard instance, shared with the container.
  assert.equal(global.container.get(UsersService).rolesOf('root')[0], 'admin')
})

test('an enhancer class whose dependency is missing fails registration naming both', async () => {
  @Controller('x') @UseGuards(RolesGuard)
  class X { @Get() get () { return 'x' } }
  @Module({ controllers: [X] })
  class NoUsers {}
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: NoUsers }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
    assert.match(error.message, /UsersService/)
    assert.match(error.message, /RolesGuard/)
    return true
  })
  await app.close()
})

let built = 0
@Injectable({ scope: Scope.REQUEST })
class PerRequestGuard implements CanActivate {
  readonly id = ++built
  constructor (@Inject(REQUEST) private readonly request: Request) {}
  canActivate () { (this.request as any).guardId = this.id; return true }
}

@Injectable({ scope: Scope.REQUEST })
class PerRequestPipe implements PipeTransform {
  readonly id = ++built
  constructor (@Inject(REQUEST) private readonly request: Request) {}
  transform (value: unknown) { return `${value as string}/${(this.request as any).guardId as number}/${this.id}` }
}

@Injectable({ scope: Scope.REQUEST })
class PerRequestInterceptor implements NestInterceptor {
  readonly id = ++built
  async intercept (ctx: ExecutionContext, next: CallHandler) { return { interceptor: this.id, result: await next.handle() } }
}

@Controller('scoped')
@UseGuards(PerRequestGuard)
@UseInterceptors(PerRequestInterceptor)
class ScopedController {
  @Get(':id') get (@Param('id', PerRequestPipe) id: string) { return id }
}

@Module({ controllers: [ScopedController] })
class ScopedModule {}

test('request-scoped guards, pipes and interceptors are built anew for every request', async (t) => {
  const app = await build(t, ScopedModule)
  built = 0
  const first = (await app.inject('/scoped/a')).json()
  const second = (await app.inject('/scoped/b')).json()
  const ids = [first.interceptor, ...first.result.split('/').slice(1).map(Number), second.interceptor, ...second.result.split('/').slice(1).map(Number)]
  assert.equal(new Set(ids).size, 6)
  assert.equal(built, 6)
  assert.match(first.result, /^a\/\d+\/\d+$/)
})

test('enhancers given as instances are used as they are', async (t) => {
  const calls: string[] = []
  const guard = { canActivate () { calls.push('guard'); return true } }
  @Controller('inst') @UseGuards(guard)
  class Inst {
    @Get() @UsePipes({ transform: (value: unknown) => value }) get () { calls.push('handler'); return 'ok' }
  }
  @Module({ controllers: [Inst] })
  class InstModule {}
  const app = await build(t, InstModule, { globalGuards: [guard] })
  assert.equal((await app.inject('/inst')).body, 'ok')
  assert.deepEqual(calls, ['guard', 'guard', 'handler'])
})

@Injectable()
class Prefix { readonly value = 'p:' }

@Injectable()
class PrefixPipe implements PipeTransform {
  constructor (@Inject(Prefix) private readonly prefix: Prefix) {}
  transform (value: unknown) { return typeof value === 'string' ? this.prefix.value + value : value }
}

@Injectable()
class WrapInterceptor implements NestInterceptor {
  constructor (@Inject(Prefix) private readonly prefix: Prefix) {}
  async intercept (ctx: ExecutionContext, next: CallHandler) { return { [this.prefix.value]: await next.handle() } }
}

@Injectable()
class TeapotFilter implements ExceptionFilter {
  constructor (@Inject(Prefix) private readonly prefix: Prefix) {}
  catch (exception: Error, host: ArgumentsHost) {
    host.switchToHttp().getResponse<any>().code(418).send({ global: this.prefix.value + exception.message })
  }
}

@Controller('globals')
class GlobalsController {
  @Get(':id') get (@Param('id') id: string) { if (id === 'p:fail') throw new Error('nope'); return id }
}

@Module({ controllers: [GlobalsController], providers: [Prefix] })
class GlobalsModule {}

test('globalPipes, globalInterceptors and globalFilters accept classes resolved in the root module', async (t) => {
  const app = await build(t, GlobalsModule, { globalPipes: [PrefixPipe], globalInterceptors: [WrapInterceptor], globalFilters: [TeapotFilter] })
  assert.deepEqual((await app.inject('/globals/1')).json(), { 'p:': 'p:1' })
  const failed = await app.inject('/globals/fail')
  assert.equal(failed.statusCode, 418)
  assert.deepEqual(failed.json(), { global: 'p:nope' })
})

test('bad enhancer entries fail with a clear error', async () => {
  assert.throws(() => UseGuards({} as any), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, /@UseGuards\(\) entry 0 must be a class or an instance with a canActivate\(\) method/)
    return true
  })
  assert.throws(() => UseInterceptors(class NotOne {} as any), /@UseInterceptors\(\) entry 0 .* intercept\(\) method, given class NotOne/)
  assert.throws(() => UsePipes(null as any), /@UsePipes\(\) entry 0 .* transform\(\) method, given null/)
  assert.throws(() => UseFilters('x' as any), /@UseFilters\(\) entry 0 .* catch\(\) method, given string "x"/)
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: GlobalsModule, globalInterceptors: [{}] } as any).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_OPTIONS')
    assert.match(error.message, /"globalInterceptors"\[0\] must be a class or an instance with intercept\(\)/)
    return true
  })
  await app.close()
})

// Interceptors

const handled: string[] = []

@Controller('icpt')
class InterceptedController {
  @Get('map')
  @UseInterceptors({ intercept: async (ctx: ExecutionContext, next: CallHandler) => ({ data: await next.handle() }) })
  map () { return [1, 2] }

  @Get('short')
  @UseInterceptors({ intercept: () => ({ cached: true }) })
  short () { handled.push('short'); return 'fresh' }

  @Get('error')
  @UseFilters({ catch (error: Error, host: ArgumentsHost) { host.switchToHttp().getResponse<any>().code(409).send({ filtered: error.message }) } })
  @UseInterceptors({ async intercept (ctx: ExecutionContext, next: CallHandler) { handled.push('saw'); return next.handle() } })
  error () { throw new Error('handler failed') }

  @Get('recover')
  @UseInterceptors({
    async intercept (ctx: ExecutionContext, next: CallHandler) {
      try { return await next.handle() } catch (error) { return { recovered: (error as Error).message } }
    }
  })
  recover () { throw new NotFoundException('gone') }

  @Get('pipe-error')
  @UseInterceptors({
    async intercept (ctx: ExecutionContext, next: CallHandler) {
      try { return await next.handle() } catch (error) { return { fromPipe: (error as Error).message } }
    }
  })
  pipeError (@Param('x', { transform () { throw new BadRequestException('bad x') } }) x: string) { return x }

  @Get('interceptor-throws')
  @UseInterceptors({ intercept () { throw new BadRequestException('refused') } })
  interceptorThrows () { handled.push('interceptor-throws'); return 'never' }

  @Get('undefined')
  @UseInterceptors({ intercept: async (ctx: ExecutionContext, next: CallHandler) => { await next.handle() } })
  nothing () { return 'dropped' }

  @Get('context')
  @UseInterceptors({
    intercept: async (ctx: ExecutionContext, next: CallHandler) => ({
      type: ctx.getType(),
      cls: ctx.getClass().name,
      handler: ctx.getHandler().name,
      url: ctx.switchToHttp().getRequest<Request>().url,
      result: await next.handle()
    })
  })
  context () { return 'x' }
}

@Module({ controllers: [InterceptedController] })
class InterceptedModule {}

test('interceptors: await next.handle() gives the result, the returned value is sent', async (t) => {
  const app = await build(t, InterceptedModule)
  assert.deepEqual((await app.inject('/icpt/map')).json(), { data: [1, 2] })
  assert.deepEqual((await app.inject('/icpt/context')).json(), { type: 'http', cls: 'InterceptedController', handler: 'context', url: '/icpt/context', result: 'x' })
  const empty = await app.inject('/icpt/undefined')
  assert.equal(empty.statusCode, 200)
  assert.equal(empty.body, '')
})

test('interceptors: not calling next.handle() skips the handler', async (t) => {
  const app = await build(t, InterceptedModule)
  handled.length = 0
  assert.deepEqual((await app.inject('/icpt/short')).json(), { cached: true })
  assert.deepEqual(handled, [])
})

test('interceptors: errors propagate to filters, or are recovered by the interceptor', async (t) => {
  const app = await build(t, InterceptedModule)
  handled.length = 0
  const filtered = await app.inject('/icpt/error')
  assert.equal(filtered.statusCode, 409)
  assert.deepEqual(filtered.json(), { filtered: 'handler failed' })
  assert.deepEqual(handled, ['saw'])
  assert.deepEqual((await app.inject('/icpt/recover')).json(), { recovered: 'gone' })
  // Pipes run inside the interceptor chain, so interceptors see pipe errors too.
  assert.deepEqual((await app.inject('/icpt/pipe-error')).json(), { fromPipe: 'bad x' })
  const refused = await app.inject('/icpt/interceptor-throws')
  assert.equal(refused.statusCode, 400)
  assert.deepEqual(refused.json(), { statusCode: 400, message: 'refused', error: 'Bad Request' })
  assert.deepEqual(handled, ['saw'])
})

// Observable-like results, without depending on rxjs.
function observableOf<T> (...values: T[]): ObservableLike<T> {
  return {
    subscribe (observer) {
      queueMicrotask(() => { for (const value of values) observer.next?.(value); observer.complete?.() })
      return { unsubscribe () {} }
    }
  }
}

function failing (error: unknown): ObservableLike {
  return { subscribe (observer) { queueMicrotask(() => observer.error?.(error)); return { unsubscribe () {} } } }
}

@Controller('obs')
class ObservableController {
  @Get('hand-made')
  @UseInterceptors({ intercept: () => observableOf('first', 'last') })
  handMade () { return 'never' }

  @Get('hand-made-error')
  @UseInterceptors({ intercept: () => failing(new BadRequestException('from observable')) })
  handMadeError () { return 'never' }

  @Get('rx-map')
  @UseInterceptors({ intercept: (ctx: ExecutionContext, next: CallHandler) => from(next.handle()).pipe(map((data) => ({ data }))) })
  rxMap () { return { id: 1 } }

  @Get('rx-async')
  @UseInterceptors({ intercept: (ctx: ExecutionContext, next: CallHandler) => from(next.handle()).pipe(map((data: number) => data * 2)) })
  async rxAsync () { return 21 }

  @Get('rx-of')
  @UseInterceptors({ intercept: () => of('cached') })
  rxOf () { return 'never' }

  @Get('rx-catch')
  @UseInterceptors({
    intercept: (ctx: ExecutionContext, next: CallHandler) => from(next.handle()).pipe(catchError((error: Error) => of({ caught: error.message })))
  })
  rxCatch () { throw new Error('rx failure') }

  @Get('rx-throw')
  @UseInterceptors({ intercept: () => throwError(() => new NotFoundException('rx not found')) })
  rxThrow () { return 'never' }

  @Get('rx-handler')
  rxHandler (): Observable<string> { return of('a', 'b') }

  @Get('rx-handler-mapped')
  @UseInterceptors({ intercept: async (ctx: ExecutionContext, next: CallHandler) => ({ got: await next.handle() }) })
  rxHandlerMapped (): Observable<string> { return of('a', 'b') }

  @Get('rx-guard')
  @UseGuards({ canActivate: () => of(false) as any })
  rxGuard () { return 'never' }
}

@Module({ controllers: [ObservableController] })
class ObservableModule {}

test('an interceptor may return an Observable-like object: its last value is sent', async (t) => {
  const app = await build(t, ObservableModule)
  assert.equal((await app.inject('/obs/hand-made')).body, 'last')
  const error = await app.inject('/obs/hand-made-error')
  assert.equal(error.statusCode, 400)
  assert.deepEqual(error.json(), { statusCode: 400, message: 'from observable', error: 'Bad Request' })
})

test('interceptors written with rxjs keep working', async (t) => {
  const app = await build(t, ObservableModule)
  assert.deepEqual((await app.inject('/obs/rx-map')).json(), { data: { id: 1 } })
  assert.equal((await app.inject('/obs/rx-async')).body, '42')
  assert.equal((await app.inject('/obs/rx-of')).body, 'cached')
  assert.deepEqual((await app.inject('/obs/rx-catch')).json(), { caught: 'rx failure' })
  const thrown = await app.inject('/obs/rx-throw')
  assert.equal(thrown.statusCode, 404)
  assert.deepEqual(thrown.json(), { statusCode: 404, message: 'rx not found', error: 'Not Found' })
  assert.equal((await app.inject('/obs/rx-handler')).body, 'b')
  assert.deepEqual((await app.inject('/obs/rx-handler-mapped')).json(), { got: 'b' })
  assert.equal((await app.inject('/obs/rx-guard')).statusCode, 403)
})

test('rxjs is no dependency: an optional peer, never imported statically', async () => {
  const { readFile, readdir } = await import('node:fs/promises')
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
  assert.equal(pkg.dependencies?.rxjs, undefined)
  assert.equal(pkg.peerDependenciesMeta?.rxjs?.optional, true)
  const dir = new URL('../../plugin/', import.meta.url)
  // Every source file, those in sub-folders included.
  const files = (await readdir(dir, { recursive: true })).filter((file) => /\.c?ts$/.test(file))
  assert.ok(files.includes('pipeline/call-handler.ts'))
  for (const file of files) {
    assert.doesNotMatch(await readFile(new URL(file, dir), 'utf8'), /from 'rxjs'|require\('rxjs'\)/, file)
  }
})
