import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import * as nest from '@nestjs/common'
import * as core from '@nestjs/core'
import ejs from 'ejs'
import Fastify from 'fastify'
import { map, of } from 'rxjs'
import {
  Controller, Get, Inject, Injectable, Module, Reflector, SetMetadata, Sse, UseGuards, VERSION_NEUTRAL, decoratorPlugin,
  type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor, type PipeTransform
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

// Classes decorated with @nestjs/common's own decorators, registered unchanged. Under tsx no
// type metadata is emitted, so constructor parameters name their tokens with NestJS's @Inject().

const ROLES = 'roles'
const Roles = (...roles: string[]) => nest.SetMetadata(ROLES, roles)

@nest.Injectable()
class RolesGuard implements nest.CanActivate {
  constructor (@nest.Inject(Reflector) private readonly reflector: Reflector) {}
  canActivate (ctx: nest.ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<string[] | undefined>(ROLES, [ctx.getHandler(), ctx.getClass()])
    return roles === undefined || roles.includes(String(ctx.switchToHttp().getRequest().headers.role))
  }
}

@nest.Injectable()
class WrapInterceptor implements nest.NestInterceptor {
  intercept (ctx: nest.ExecutionContext, next: nest.CallHandler) { return next.handle().pipe(map((data) => ({ data }))) }
}

@nest.Injectable()
class UpperPipe implements nest.PipeTransform {
  transform (value: unknown) { return String(value).toUpperCase() }
}

const User = nest.createParamDecorator((data: string | undefined, ctx: nest.ExecutionContext) => {
  const user = { name: 'ada', role: String(ctx.switchToHttp().getRequest().headers.role) }
  return data === undefined ? user : user[data as keyof typeof user]
})

@nest.Injectable()
class CatsService {
  readonly #cats = [{ id: 1, name: 'Tom' }]
  find (id: number) { return this.#cats.find((cat) => cat.id === id) }
}

@nest.Catch(nest.ConflictException)
class ConflictFilter implements nest.ExceptionFilter {
  catch (exception: nest.ConflictException, host: nest.ArgumentsHost) {
    host.switchToHttp().getResponse().code(409).send({ filtered: exception.message })
  }
}

@nest.Controller('cats')
@nest.UseGuards(RolesGuard)
class CatsController {
  constructor (@nest.Inject(CatsService) private readonly cats: CatsService) {}

  @nest.Get(':id')
  one (@nest.Param('id', nest.ParseIntPipe) id: number) {
    const cat = this.cats.find(id)
    if (cat === undefined) throw new nest.NotFoundException(`no cat ${id}`)
    return cat
  }

  @nest.Post()
  @nest.HttpCode(202)
  @nest.Header('x-made-by', 'nest')
  @Roles('admin')
  create (@nest.Body('name', UpperPipe) name: string, @nest.Query() query: Record<string, string>, @nest.Headers('X-Trace') trace: string) {
    return { name, query, trace }
  }

  @nest.Put(':id')
  @nest.UseInterceptors(WrapInterceptor)
  replace (@nest.Param() params: Record<string, string>, @User('name') name: string, @User() user: object) { return { params, name, user } }

  @nest.Delete(':id')
  @nest.UseFilters(ConflictFilter)
  remove () { throw new nest.ConflictException('in use') }

  @nest.Patch('raw')
  raw (@nest.Req() request: { url: string }, @nest.Res({ passthrough: true }) reply: { header: (name: string, value: string) => void }, @nest.Ip() ip: string) {
    reply.header('x-passthrough', 'yes')
    return { url: request.url, ip }
  }

  @nest.Get('away/:to')
  @nest.Redirect('https://example.com/default', 301)
  away (@nest.Param('to') to: string) { return to === 'default' ? undefined : { url: `https://example.com/${to}` } }

  @nest.All('any')
  any () { return 'any method' }

  @nest.Head('probe')
  probe () { return '' }

  @nest.Options('probe')
  options () { return 'options' }
}

@nest.Module({ providers: [CatsService], controllers: [CatsController] })
class CatsModule {}

@nest.Module({ imports: [CatsModule] })
class AppModule {}

test('a @nestjs/common module, controller, service, guard, pipe, interceptor and filter register unchanged', async (t) => {
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/cats/1')).json(), { id: 1, name: 'Tom' })
  const missing = await app.inject('/cats/2')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { message: 'no cat 2', error: 'Not Found', statusCode: 404 })
  const notInt = await app.inject('/cats/x')
  assert.equal(notInt.statusCode, 400)
  assert.deepEqual(notInt.json(), { message: 'Validation failed (numeric string is expected)', error: 'Bad Request', statusCode: 400 })

  const forbidden = await app.inject({ method: 'POST', url: '/cats?a=1', payload: { name: 'felix' }, headers: { role: 'user' } })
  assert.equal(forbidden.statusCode, 403)
  const created = await app.inject({ method: 'POST', url: '/cats?a=1', payload: { name: 'felix' }, headers: { role: 'admin', 'x-trace': 't1' } })
  assert.equal(created.statusCode, 202)
  assert.equal(created.headers['x-made-by'], 'nest')
  assert.deepEqual(created.json(), { name: 'FELIX', query: { a: '1' }, trace: 't1' })

  const replaced = await app.inject({ method: 'PUT', url: '/cats/3', headers: { role: 'cook' } })
  assert.deepEqual(replaced.json(), { data: { params: { id: '3' }, name: 'ada', user: { name: 'ada', role: 'cook' } } })

  const filtered = await app.inject({ method: 'DELETE', url: '/cats/1' })
  assert.equal(filtered.statusCode, 409)
  assert.deepEqual(filtered.json(), { filtered: 'in use' })

  const raw = await app.inject({ method: 'PATCH', url: '/cats/raw' })
  assert.equal(raw.headers['x-passthrough'], 'yes')
  assert.deepEqual(raw.json(), { url: '/cats/raw', ip: '127.0.0.1' })

  const away = await app.inject('/cats/away/default')
  assert.equal(away.statusCode, 301)
  assert.equal(away.headers.location, 'https://example.com/default')
  assert.equal((await app.inject('/cats/away/else')).headers.location, 'https://example.com/else')

  for (const method of ['GET', 'POST', 'DELETE'] as const) assert.equal((await app.inject({ method, url: '/cats/any' })).body, 'any method')
  assert.equal((await app.inject({ method: 'HEAD', url: '/cats/probe' })).statusCode, 200)
  assert.equal((await app.inject({ method: 'OPTIONS', url: '/cats/probe' })).body, 'options')
})

test('scopes: NestJS\'s Scope.REQUEST and Scope.TRANSIENT, on providers and controllers', async (t) => {
  let built = 0
  @nest.Injectable({ scope: nest.Scope.REQUEST })
  class PerRequest { readonly n = ++built }
  @nest.Injectable({ scope: nest.Scope.TRANSIENT })
  class Transient { readonly id = Symbol('transient') }
  @nest.Controller({ path: 'scoped', scope: nest.Scope.REQUEST })
  class ScopedController {
    constructor (@nest.Inject(PerRequest) private readonly one: PerRequest, @nest.Inject(Transient) private readonly a: Transient, @nest.Inject(Transient) private readonly b: Transient) {}
    @nest.Get() get () { return { n: this.one.n, distinct: this.a.id !== this.b.id } }
  }
  @nest.Module({ providers: [PerRequest, Transient, { provide: 'FACTORY', useFactory: () => 'made', scope: nest.Scope.REQUEST }], controllers: [ScopedController] })
  class ScopedModule {}
  const app = await build(t, ScopedModule)
  assert.deepEqual((await app.inject('/scoped')).json(), { n: 1, distinct: true })
  assert.deepEqual((await app.inject('/scoped')).json(), { n: 2, distinct: true })
})

test('@Optional(), custom providers, exports and @Global() as NestJS declares them', async (t) => {
  @nest.Injectable()
  class Config { readonly name = 'config' }
  @nest.Global()
  @nest.Module({ providers: [Config, { provide: 'GREETING', useValue: 'hello' }], exports: [Config, { provide: 'GREETING', useValue: 'hello' }] })
  class ConfigModule {}
  @nest.Injectable()
  class Greeter {
    constructor (
      @nest.Inject('GREETING') readonly greeting: string,
      @nest.Inject(Config) readonly config: Config,
      @nest.Optional() @nest.Inject('MISSING') readonly missing?: string
    ) {}
  }
  @nest.Controller()
  class GreetController {
    constructor (@nest.Inject(Greeter) private readonly greeter: Greeter) {}
    @nest.Get('greet') greet () { return { greeting: this.greeter.greeting, config: this.greeter.config.name, missing: this.greeter.missing ?? null } }
  }
  // An empty @Module({}) writes no metadata; imported by a NestJS module it is a module still.
  @nest.Module({})
  class EmptyModule {}
  @nest.Module({ imports: [ConfigModule, EmptyModule], providers: [Greeter], controllers: [GreetController] })
  class GreetModule {}
  const app = await build(t, GreetModule)
  assert.deepEqual((await app.inject('/greet')).json(), { greeting: 'hello', config: 'config', missing: null })
})

test('the module system as NestJS code declares it: property injection, forwardRef, async dynamic modules, APP_GUARD', async (t) => {
  @nest.Injectable()
  class Vault {
    constructor (@nest.Inject('VAULT_SECRET') private readonly value: string) {}
    secret () { return this.value }
  }
  // NestJS's @Module({}) on a class a dynamic module names: what forRootAsync() gives is read too.
  @nest.Module({})
  class VaultModule {
    static async forRootAsync (): Promise<nest.DynamicModule> {
      return { module: VaultModule, providers: [Vault, { provide: 'VAULT_SECRET', useValue: 's3cret' }], exports: [Vault] }
    }
  }
  @nest.Injectable()
  class Cats {
    @nest.Inject(nest.forwardRef(() => Owners)) readonly owners!: Owners
    @nest.Optional() @nest.Inject('MISSING') readonly missing: string = 'kept'
    name () { return 'Tom' }
  }
  @nest.Injectable()
  class Owners {
    constructor (@nest.Inject(nest.forwardRef(() => Cats)) readonly cats: Cats) {}
    name () { return 'Jon' }
  }
  @nest.Module({ imports: [nest.forwardRef(() => OwnersModule)], providers: [Cats], exports: [Cats] })
  class CatsModule {}
  @nest.Module({ imports: [nest.forwardRef(() => CatsModule)], providers: [Owners], exports: [Owners] })
  class OwnersModule {}
  @nest.Injectable()
  class SecretGuard implements nest.CanActivate {
    @nest.Inject(Vault) private readonly vault!: Vault
    canActivate (ctx: nest.ExecutionContext) { return ctx.switchToHttp().getRequest().headers.secret === this.vault.secret() }
  }
  @nest.Controller('pets')
  class PetsController {
    constructor (@nest.Inject(Cats) private readonly cats: Cats) {}
    @nest.Get() get () { return [this.cats.name(), this.cats.owners.name(), this.cats.owners.cats.name(), this.cats.missing] }
  }
  @nest.Module({ imports: [VaultModule.forRootAsync(), CatsModule], controllers: [PetsController], providers: [{ provide: core.APP_GUARD, useClass: SecretGuard }] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject('/pets')).statusCode, 403)
  assert.deepEqual((await app.inject({ url: '/pets', headers: { secret: 's3cret' } })).json(), ['Tom', 'Jon', 'Tom', 'kept'])
})

test('versions: @Version and @Controller({ version }) with NestJS\'s VERSION_NEUTRAL', async (t) => {
  @nest.Controller({ path: 'v', version: '1' })
  class VersionedController {
    @nest.Get() one () { return 'v1' }
    @nest.Version('2') @nest.Get() two () { return 'v2' }
    @nest.Version(nest.VERSION_NEUTRAL) @nest.Get() neutral () { return 'neutral' }
  }
  @nest.Module({ controllers: [VersionedController] })
  class VersionedModule {}
  const app = await build(t, VersionedModule, { versioning: { type: 'header', header: 'x-api-version' } })
  assert.equal((await app.inject({ url: '/v', headers: { 'x-api-version': '1' } })).body, 'v1')
  assert.equal((await app.inject({ url: '/v', headers: { 'x-api-version': '2' } })).body, 'v2')
  assert.equal((await app.inject('/v')).body, 'neutral')
  assert.notEqual(VERSION_NEUTRAL, nest.VERSION_NEUTRAL)
})

test('@Render(): a NestJS handler renders through @fastify/view', async (t) => {
  @nest.Controller('page')
  class PageController {
    @nest.Get() @nest.Render('who') page () { return { who: 'nest' } }
  }
  @nest.Module({ controllers: [PageController] })
  class PageModule {}
  const app = await build(t, PageModule, { view: { engine: { ejs }, root: fileURLToPath(new URL('../fixtures/views', import.meta.url)) } })
  const page = await app.inject('/page')
  assert.equal(page.statusCode, 200)
  assert.equal(page.body.trim(), '<p>from nest</p>')
})

// Beside the plugin's own decorators: classes of either kind in one application.
@Injectable()
class PluginService { hello () { return 'plugin service' } }

@nest.Injectable()
class NestService {
  constructor (@nest.Inject(PluginService) private readonly plugin: PluginService) {}
  hello () { return `nest service, then ${this.plugin.hello()}` }
}

@nest.Injectable()
class HeaderGuard implements CanActivate {
  canActivate (ctx: ExecutionContext) { return ctx.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers.pass === 'yes' }
}

class DoublePipe implements PipeTransform { transform (value: string) { return value + value } }

class TagInterceptor implements NestInterceptor {
  intercept (ctx: ExecutionContext, next: CallHandler) { return next.handle().pipe(map((value) => ({ tagged: value }))) }
}

@Controller('mixed')
@UseGuards(HeaderGuard)
class PluginController {
  constructor (@Inject(NestService) private readonly service: NestService) {}
  @Get() hello () { return this.service.hello() }
  // NestJS's parameter decorators, pipes and interceptors on a handler of the plugin's controller.
  @Get(':word') @nest.UseInterceptors(TagInterceptor) word (@nest.Param('word', DoublePipe) word: string) { return word }
}

@nest.Controller('nest-side')
class NestController {
  constructor (@nest.Inject(PluginService) private readonly service: PluginService) {}
  @nest.Get() @UseGuards(HeaderGuard) hello () { return this.service.hello() }
}

@Module({ providers: [PluginService], exports: [PluginService] })
class PluginModule {}

@nest.Module({ imports: [PluginModule], providers: [NestService], exports: [NestService] })
class NestModule {}

@Module({ imports: [NestModule, PluginModule], controllers: [PluginController, NestController] })
class MixedModule {}

test('classes of @nestjs/common and of the plugin inject each other, in modules of either kind', async (t) => {
  const app = await build(t, MixedModule)
  const pass = { headers: { pass: 'yes' } }
  assert.equal((await app.inject({ url: '/mixed', ...pass })).body, 'nest service, then plugin service')
  assert.equal((await app.inject('/mixed')).statusCode, 403)
  assert.deepEqual((await app.inject({ url: '/mixed/ab', ...pass })).json(), { tagged: 'abab' })
  assert.equal((await app.inject({ url: '/nest-side', ...pass })).body, 'plugin service')
  assert.equal((await app.inject('/nest-side')).statusCode, 403)
})

test('a controller of the plugin\'s with one NestJS decorator on one method, or on a base class\'s method, reads it', async (t) => {
  // Each NestJS decorator on a method that is not the first one, so a look that stops early misses it.
  class Base {
    @Get('plain') plain () { return 'plain' }
    @Get('inherited/:n') inherited (@nest.Param('n', nest.ParseIntPipe) n: number) { return { n } }
    @nest.Get('base-route') baseRoute () { return 'base route' }
  }
  @Controller('one-method')
  class OneMethodController extends Base {
    @Get() first () { return 'first' }
    helper () { return 'not a route' }
    @Get('code') @nest.HttpCode(202) code () { return 'code' }
    @Get('param/:id') param (@nest.Param('id', nest.ParseIntPipe) id: number) { return { id } }
    @nest.Get('nest-route') nestRoute () { return 'nest route' }
  }
  @Controller('class-guard')
  @nest.UseGuards(HeaderGuard)
  class ClassGuardController {
    @Get() get () { return 'guarded' }
  }
  @Module({ controllers: [OneMethodController, ClassGuardController] })
  class OneMethodModule {}
  const app = await build(t, OneMethodModule)
  assert.equal((await app.inject('/one-method')).body, 'first')
  assert.equal((await app.inject('/one-method/plain')).body, 'plain')
  const code = await app.inject('/one-method/code')
  assert.deepEqual([code.statusCode, code.body], [202, 'code'])
  assert.deepEqual((await app.inject('/one-method/param/7')).json(), { id: 7 })
  assert.equal((await app.inject('/one-method/param/x')).statusCode, 400)
  assert.equal((await app.inject('/one-method/nest-route')).body, 'nest route')
  assert.deepEqual((await app.inject('/one-method/inherited/3')).json(), { n: 3 })
  assert.equal((await app.inject('/one-method/inherited/x')).statusCode, 400)
  assert.equal((await app.inject('/one-method/base-route')).body, 'base route')
  assert.equal((await app.inject('/one-method/helper')).statusCode, 404)
  assert.equal((await app.inject('/class-guard')).statusCode, 403)
  assert.equal((await app.inject({ url: '/class-guard', headers: { pass: 'yes' } })).body, 'guarded')
})

test('a controller whose prototype chain holds an object naming no class (a null-prototype mixin) registers', async (t) => {
  const mixin = Object.assign(Object.create(null), { helper () { return 'from the mixin' } })
  @Controller('mixin')
  class MixinController {
    @Get() get () { return (this as unknown as { helper: () => string }).helper() }
  }
  Object.setPrototypeOf(MixinController.prototype, mixin)
  @Module({ controllers: [MixinController] })
  class MixinModule {}
  const app = await build(t, MixinModule)
  assert.equal((await app.inject('/mixin')).body, 'from the mixin')
})

test('routes defined on a null-prototype mixin in a controller\'s prototype chain serve, with NestJS\'s decorators on them or not', async (t) => {
  const mixin = Object.create(null)
  const method = (value: () => string): PropertyDescriptor => ({ value, writable: true, configurable: true })
  Object.defineProperty(mixin, 'plain', method(() => 'plain mixin route'))
  Object.defineProperty(mixin, 'coded', method(() => 'coded mixin route'))
  @Controller('null-mixin')
  class NullMixinController { @Get() own () { return 'own' } }
  Object.setPrototypeOf(NullMixinController.prototype, mixin)
  Get('plain')(NullMixinController.prototype, 'plain', Object.getOwnPropertyDescriptor(mixin, 'plain')!)
  Get('coded')(NullMixinController.prototype, 'coded', Object.getOwnPropertyDescriptor(mixin, 'coded')!)
  nest.HttpCode(202)(mixin, 'coded', Object.getOwnPropertyDescriptor(mixin, 'coded')!)
  @Module({ controllers: [NullMixinController] })
  class NullMixinModule {}
  const app = await build(t, NullMixinModule)
  assert.equal((await app.inject('/null-mixin/plain')).body, 'plain mixin route')
  const coded = await app.inject('/null-mixin/coded')
  assert.deepEqual([coded.statusCode, coded.body], [202, 'coded mixin route'])
  assert.equal((await app.inject('/null-mixin')).body, 'own')
})

test('metadata set by @nestjs/common\'s SetMetadata reads through the plugin\'s Reflector, and the other way round', () => {
  const reflector = new Reflector()
  class Target {
    @nest.SetMetadata('nest-key', 'from nest') a () {}
    @Roles('x') b () {}
  }
  const NestDecorator = nest.SetMetadata('k', 1)
  assert.equal(reflector.get('nest-key', Target.prototype.a), 'from nest')
  assert.deepEqual(reflector.get(ROLES, Target.prototype.b), ['x'])
  assert.equal(NestDecorator.KEY, 'k')
  // A decorator made by @nestjs/core's Reflector.createDecorator, read by the plugin's Reflector.
  const Scopes = core.Reflector.createDecorator<string[]>()
  @Scopes(['read'])
  class Decorated {}
  assert.deepEqual(reflector.get(Scopes, Decorated), ['read'])
  // The plugin's SetMetadata, read by @nestjs/core's Reflector.
  @SetMetadata('plugin-key', 'from plugin')
  class Marked {}
  assert.equal(new core.Reflector().get('plugin-key', Marked), 'from plugin')
})

test('a NestJS declaration the plugin cannot run fails registration, naming the class, the member and the fix', async () => {
  @nest.Controller('s')
  class NextController { @nest.Get() get (@nest.Next() next: unknown) { return next } }
  @nest.Module({ controllers: [NextController] })
  class NextModule {}
  const next = await registrationError({ module: NextModule })
  assert.equal(next.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(next.message, /NextController\.get: parameter 0 takes @Next\(\).*Fastify handlers take no next\(\)/)
  // Nothing of a class that failed is kept as read: the next registration fails the same way.
  assert.equal((await registrationError({ module: NextModule })).message, next.message)

  @nest.Controller('search')
  class SearchController { @nest.Search() find () { return [] } }
  @nest.Module({ controllers: [SearchController] })
  class SearchModule {}
  const search = await registrationError({ module: SearchModule })
  assert.equal(search.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(search.message, /SearchController\.find is a SEARCH route .* Use @All\(\)/)

  @nest.Controller(['a', 'b'])
  class TwoPaths { @nest.Get() get () { return 1 } }
  @nest.Module({ controllers: [TwoPaths] })
  class TwoPathsModule {}
  const paths = await registrationError({ module: TwoPathsModule })
  assert.equal(paths.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(paths.message, /@Controller\(\) on TwoPaths gives several paths \(a, b\)/)

  const schema = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } }
  @nest.Controller('schema')
  class SchemaController {
    @nest.Post() @nest.Header('x-at', (() => 'now') as unknown as string) timed () { return 1 }
    @nest.Post('body') create (@nest.Body({ schema } as any) body: unknown) { return body }
  }
  @nest.Module({ controllers: [SchemaController] })
  class SchemaModule {}
  const header = await registrationError({ module: SchemaModule })
  assert.equal(header.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(header.message, /SchemaController\.(timed: @Header\('x-at'\) has a function for its value|create: parameter 0 gives a Standard Schema)/)

  @nest.Controller('sse')
  class SseController { @nest.Sse('', { maxPendingDataLength: -1 }) events () { return 1 } }
  @nest.Module({ controllers: [SseController] })
  class SseModule {}
  const sse = await registrationError({ module: SseModule })
  assert.equal(sse.code, 'FDP_ERR_INVALID_DECLARATION')
  assert.match(sse.message, /SseController\.events: @Sse\(\) option "maxPendingDataLength" takes a number of characters/)
})

test("NestJS's @SseSignal() on an @Sse() handler fails registration, naming the fix; other custom parameters there are read", async (t) => {
  @nest.Controller('signal')
  class SignalController {
    @nest.Sse() events (@nest.Query('q') q: string, @nest.SseSignal() signal: AbortSignal) { return of({ data: String(signal) }) }
  }
  @nest.Module({ controllers: [SignalController] })
  class SignalModule {}
  const error = await registrationError({ module: SignalModule })
  assert.equal(error.code, 'FDP_ERR_NEST_UNSUPPORTED')
  assert.match(error.message, /^SignalController\.events: parameter 1 takes @SseSignal\(\) of @nestjs\/common, which the plugin does not provide\. End the producer in the Observable's teardown or the async generator's finally block/)

  // The plugin's own @Sse() with it: the same.
  @Controller('own-signal')
  class OwnSignalController {
    @Sse() events (@nest.SseSignal() signal: AbortSignal) { return of({ data: String(signal) }) }
  }
  @Module({ controllers: [OwnSignalController] })
  class OwnSignalModule {}
  assert.match((await registrationError({ module: OwnSignalModule })).message, /^OwnSignalController\.events: parameter 0 takes @SseSignal\(\)/)

  const Tenant = nest.createParamDecorator((data: unknown, ctx: nest.ExecutionContext) => ctx.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-tenant'])
  @nest.Controller('tenant')
  class TenantController {
    @nest.Sse() events (@Tenant() tenant: string) { return of({ data: tenant }) }
  }
  @nest.Module({ controllers: [TenantController] })
  class TenantModule {}
  const app = await build(t, TenantModule)
  assert.equal((await app.inject({ url: '/tenant', headers: { 'x-tenant': 'acme' } })).body, '\nid: 1\ndata: acme\n\n')
})

test("NestJS's @Sse() streams events as the plugin's does, with its options", async (t) => {
  @nest.Controller('feed')
  class Feed {
    @nest.Sse() all () { return of({ data: { n: 1 } }, { data: 'two', type: 'x' }) }
    @nest.Sse('posted', { method: nest.RequestMethod.POST, maxPendingDataLength: 1024 }) async * posted () { yield { data: 'p' } }
  }
  @nest.Module({ controllers: [Feed] })
  class FeedModule {}
  const app = await build(t, FeedModule)
  const all = await app.inject('/feed')
  assert.equal(all.headers['content-type'], 'text/event-stream')
  assert.equal(all.body, '\nid: 1\ndata: {"n":1}\n\nevent: x\nid: 2\ndata: two\n\n')
  const posted = await app.inject({ method: 'POST', url: '/feed/posted' })
  assert.equal(posted.body, '\nid: 1\ndata: p\n\n')
})

test('reading is done once per class: a second application of the same classes gets the same answers', async (t) => {
  const first = await build(t, AppModule)
  const second = await build(t, AppModule)
  for (const app of [first, second]) {
    const created = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'a' }, headers: { role: 'admin' } })
    assert.equal(created.statusCode, 202)
    assert.deepEqual(created.headers['x-made-by'], 'nest')
  }
})

test('a NestJS module\'s configure(consumer) applies a @nestjs/common middleware class to its routes', async (t) => {
  @nest.Injectable()
  class StampMiddleware implements nest.NestMiddleware {
    constructor (@nest.Inject('STAMP') private readonly stamp: string) {}
    use (request: unknown, response: { setHeader: (name: string, value: string) => void }, next: () => void) {
      response.setHeader('x-stamp', this.stamp)
      next()
    }
  }
  @nest.Controller('stamped')
  class StampedController {
    @nest.Get() get () { return 'stamped' }
    @nest.Post() post () { return 'not stamped' }
  }
  @nest.Module({ controllers: [StampedController], providers: [{ provide: 'STAMP', useValue: 'nest' }] })
  class StampedModule implements nest.NestModule {
    configure (consumer: nest.MiddlewareConsumer) {
      consumer.apply(StampMiddleware).forRoutes({ path: 'stamped', method: nest.RequestMethod.GET })
    }
  }
  const app = await build(t, StampedModule)
  assert.equal((await app.inject('/stamped')).headers['x-stamp'], 'nest')
  assert.equal((await app.inject({ method: 'POST', url: '/stamped' })).headers['x-stamp'], undefined)
})

test('inherited NestJS routes: two controllers extending one base serve its handlers under their own paths', async (t) => {
  abstract class CrudController {
    protected abstract readonly kind: string
    @nest.Get(':id') one (@nest.Param('id', nest.ParseIntPipe) id: number) { return { kind: this.kind, id } }
    @nest.Post() @nest.HttpCode(202) create (@nest.Body('name') name: string) { return { kind: this.kind, name } }
  }
  @nest.Controller('dogs')
  class DogsController extends CrudController { protected readonly kind = 'dog' }
  @nest.Controller('birds')
  class BirdsController extends CrudController {
    protected readonly kind = 'bird'
    @nest.Get('all/list') list () { return ['tweety'] }
  }
  @nest.Module({ controllers: [DogsController, BirdsController] })
  class AnimalsModule {}
  const app = await build(t, AnimalsModule)
  assert.deepEqual((await app.inject('/dogs/1')).json(), { kind: 'dog', id: 1 })
  assert.deepEqual((await app.inject('/birds/2')).json(), { kind: 'bird', id: 2 })
  assert.equal((await app.inject('/birds/x')).statusCode, 400)
  const created = await app.inject({ method: 'POST', url: '/birds', payload: { name: 'polly' } })
  assert.equal(created.statusCode, 202)
  assert.deepEqual(created.json(), { kind: 'bird', name: 'polly' })
  assert.deepEqual((await app.inject('/birds/all/list')).json(), ['tweety'])
  assert.equal((await app.inject('/dogs/all/list')).statusCode, 404)
})

test('every NestJS singleton is built at start, injected or not; a transient nothing injects is never built', async (t) => {
  const built: string[] = []
  @nest.Injectable()
  class SelfRegistering { constructor () { built.push('singleton') } }
  @nest.Injectable({ scope: nest.Scope.TRANSIENT })
  class NeedsMissingDriver { constructor () { throw new Error('driver not installed') } }
  @nest.Module({ providers: [SelfRegistering, NeedsMissingDriver], exports: [NeedsMissingDriver] })
  class DriversModule {}
  await build(t, DriversModule)
  assert.deepEqual(built, ['singleton'])
})

test('NestJS\'s @Controller({ host }) pattern and @HostParam() read the request\'s host', async (t) => {
  @nest.Controller({ path: 'tenant', host: ':account.example.com' })
  class TenantController {
    @nest.Get() who (@nest.HostParam('account') account: string, @nest.HostParam() all: Record<string, string>) { return { account, all } }
  }
  @nest.Module({ controllers: [TenantController] })
  class TenantModule {}
  const app = await build(t, TenantModule)
  assert.deepEqual((await app.inject({ url: '/tenant', headers: { host: 'acme.example.com' } })).json(), { account: 'acme', all: { account: 'acme' } })
  assert.equal((await app.inject({ url: '/tenant', headers: { host: 'example.org' } })).statusCode, 404)
})

test('a NestJS handler with several paths, on a controller with no path, serves each of them', async (t) => {
  @nest.Controller()
  class RootController {
    @nest.Get(['first', 'second/:id']) both (@nest.Param('id') id?: string) { return { id: id ?? null } }
  }
  @nest.Module({ controllers: [RootController] })
  class RootModule {}
  const app = await build(t, RootModule)
  assert.deepEqual((await app.inject('/first')).json(), { id: null })
  assert.deepEqual((await app.inject('/second/7')).json(), { id: '7' })
})

test('two applications registered at the same time read the same NestJS classes, each adopting or reading what the other wrote', async (t) => {
  @nest.Controller('twice')
  @nest.UseGuards(RolesGuard)
  class TwiceController {
    @nest.Get(':id') @Roles('admin') @nest.Header('x-twice', 'yes') one (@nest.Param('id', nest.ParseIntPipe) id: number) { return { id } }
  }
  @nest.Module({ controllers: [TwiceController] })
  class TwiceModule {}
  const apps = [Fastify(), Fastify()]
  t.after(() => Promise.all(apps.map((app) => app.close())))
  await Promise.all(apps.map(async (app) => { await app.register(decoratorPlugin, { module: TwiceModule }) }))
  await Promise.all(apps.map((app) => app.ready()))
  for (const app of apps) {
    const allowed = await app.inject({ url: '/twice/7', headers: { role: 'admin' } })
    assert.deepEqual([allowed.statusCode, allowed.json(), allowed.headers['x-twice']], [200, { id: 7 }, 'yes'])
    assert.equal((await app.inject({ url: '/twice/7', headers: { role: 'guest' } })).statusCode, 403)
  }
})

test('metadata written between two registrations (decorators applied late: a route, a guard, NestJS\'s @HttpCode()) is read by the second', async (t) => {
  @Controller('late')
  class LateController {
    @Get() get () { return 'get' }
    extra () { return 'extra' }
  }
  @Module({ controllers: [LateController] })
  class LateModule {}
  const first = await build(t, LateModule)
  assert.equal((await first.inject('/late/extra')).statusCode, 404)
  const guard: CanActivate = { canActivate: (ctx) => ctx.switchToHttp().getRequest().headers.role === 'admin' }
  UseGuards(guard)(LateController)
  Get('extra')(LateController.prototype, 'extra', Object.getOwnPropertyDescriptor(LateController.prototype, 'extra')!)
  nest.HttpCode(202)(LateController.prototype, 'extra', Object.getOwnPropertyDescriptor(LateController.prototype, 'extra')!)
  const second = await build(t, LateModule)
  assert.equal((await second.inject('/late/extra')).statusCode, 403)
  const extra = await second.inject({ url: '/late/extra', headers: { role: 'admin' } })
  assert.deepEqual([extra.statusCode, extra.body], [202, 'extra'])
  // The first application keeps what it registered.
  assert.equal((await first.inject('/late')).statusCode, 200)
})

test('NestJS\'s @Cookies(), @SignedCookies() and @Session() read @fastify/cookie\'s and the session plugin\'s values', async (t) => {
  const secret = 'a secret of at least thirty-two characters'
  @nest.Controller('me')
  class MeController {
    @nest.Get() get (@nest.Cookies('theme') theme: string, @nest.SignedCookies() signed: Record<string, string>, @nest.Session() session: { get: (key: string) => unknown }) {
      return { theme, signed: { ...signed }, visits: session.get('visits') ?? 0 }
    }
  }
  @nest.Module({ controllers: [MeController] })
  class MeModule {}
  const app = await build(t, MeModule, {}, async (app) => {
    await app.register((await import('@fastify/cookie')).default, { secret })
    await app.register((await import('@fastify/session')).default, { secret, cookie: { secure: false } })
  })
  const uid = app.signCookie('7')
  assert.deepEqual((await app.inject({ url: '/me', headers: { cookie: `theme=dark; uid=${uid}` } })).json(), { theme: 'dark', signed: { uid: '7' }, visits: 0 })
  const error = await registrationError({ module: MeModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_PEER')
  assert.match(error.message, /MeController\.get takes @Session\(\), which reads request\.session from @fastify\/session or @fastify\/secure-session/)
})
