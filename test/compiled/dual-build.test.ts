// One process, two copies of the package (as when an app and a library each install their own):
// an application declared with one copy's decorators and classes, registered through the other's
// plugin. The package itself is one copy whether imported or required (its ES entry wraps the
// CommonJS build); the ES build of the same sources, loaded by path, is the second copy.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import Fastify from 'fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import * as esm from '../../plugin/index.js'
import * as esmTesting from '../../plugin/testing.js'
import * as imported from 'fastify-decorator-plugin'
import * as importedTesting from 'fastify-decorator-plugin/testing'

const require = createRequire(import.meta.url)
const cjs: typeof esm = require('fastify-decorator-plugin')
const cjsTesting: typeof esmTesting = require('fastify-decorator-plugin/testing')
const builds = { esm, cjs }

type Decorator = (...args: any[]) => unknown

// What tsc emits for decorators (bottom-up) and for emitDecoratorMetadata, written out by hand
// so that one declaration can be made with either build.
function decorate (decorators: Decorator[], target: any, key?: string, paramTypes?: unknown[]): void {
  if (paramTypes) Reflect.defineMetadata('design:paramtypes', paramTypes, key === undefined ? target : target.prototype, key as string)
  for (const decorator of [...decorators].reverse()) {
    if (key === undefined) decorator(target)
    else decorator(target.prototype, key, Object.getOwnPropertyDescriptor(target.prototype, key))
  }
}

function declareApp (lib: typeof esm) {
  const Roles = lib.Reflector.createDecorator<string[]>()
  class RolesGuard {
    constructor (readonly reflector: esm.Reflector) {}
    canActivate (ctx: esm.ExecutionContext): boolean {
      const roles = this.reflector.getAllAndOverride<string[] | undefined>(Roles, [ctx.getHandler(), ctx.getClass()])
      return roles === undefined || roles.includes(String(ctx.switchToHttp().getRequest<FastifyRequest>().headers['x-role']))
    }
  }
  decorate([lib.Injectable()], RolesGuard, undefined, [lib.Reflector])

  class NotFoundFilter {
    catch (exception: esm.HttpException, host: esm.ArgumentsHost) {
      host.switchToHttp().getResponse<FastifyReply>().code(404).send({ filtered: exception.message })
    }
  }
  decorate([lib.Catch(lib.NotFoundException)], NotFoundFilter)

  class RequestInfo {
    constructor (readonly request: FastifyRequest) {}
    get url () { return this.request.url }
  }
  decorate([lib.Injectable({ scope: lib.Scope.REQUEST })], RequestInfo)
  lib.Inject(lib.REQUEST)(RequestInfo, undefined, 0)

  class CatsService {
    find (id: string) {
      if (id !== '1') throw new lib.NotFoundException(`cat ${id} not found`)
      return { id, name: 'Tom' }
    }
  }
  decorate([lib.Injectable()], CatsService)

  class CatsController {
    constructor (readonly cats: CatsService, readonly info: RequestInfo) {}
    find (id: string) { return this.cats.find(id) }
    filtered (id: string) { return this.cats.find(id) }
    forbidden () { throw new lib.ForbiddenException('not for you') }
    neutral () { return { url: this.info.url } }
    file () { return new lib.StreamableFile(Buffer.from('a,b\n'), { type: 'text/csv' }) }
  }
  decorate([lib.Controller('cats'), lib.UseGuards(RolesGuard)], CatsController, undefined, [CatsService, RequestInfo])
  decorate([lib.Get('one/:id'), Roles(['admin'])], CatsController, 'find')
  lib.Param('id')(CatsController.prototype, 'find', 0)
  decorate([lib.Get('filtered/:id'), lib.UseFilters(NotFoundFilter)], CatsController, 'filtered')
  lib.Param('id')(CatsController.prototype, 'filtered', 0)
  decorate([lib.Get('forbidden')], CatsController, 'forbidden')
  decorate([lib.Get('neutral'), lib.Version(lib.VERSION_NEUTRAL)], CatsController, 'neutral')
  decorate([lib.Get('file')], CatsController, 'file')

  class CatsModule {}
  decorate([lib.Module({ controllers: [CatsController], providers: [CatsService, RequestInfo] })], CatsModule)
  return { CatsModule, CatsService }
}

test('import and require of the package give one copy; the ES build loaded by path is another', () => {
  assert.match(import.meta.resolve('fastify-decorator-plugin'), /\/dist\/wrapper\/index\.js$/)
  assert.match(require.resolve('fastify-decorator-plugin'), /\/dist\/cjs\/plugin\/index\.js$/)
  assert.match(require.resolve('fastify-decorator-plugin/testing'), /\/dist\/cjs\/plugin\/testing\.js$/)
  for (const name of Object.keys(cjs) as Array<keyof typeof cjs>) assert.equal(imported[name], cjs[name], name)
  for (const name of Object.keys(cjsTesting) as Array<keyof typeof cjsTesting>) assert.equal(importedTesting[name], cjsTesting[name], name)
  assert.notEqual(cjs.HttpException, esm.HttpException)
  assert.notEqual(cjs.Reflector, esm.Reflector)
  assert.notEqual(cjs.decoratorPlugin, esm.decoratorPlugin)
  // Tokens are registered symbols: one value in both copies.
  assert.equal(cjs.REQUEST, esm.REQUEST)
  assert.equal(cjs.FASTIFY, esm.FASTIFY)
  assert.equal(cjs.VERSION_NEUTRAL, esm.VERSION_NEUTRAL)
})

for (const [declaredWith, registeredWith] of [['cjs', 'esm'], ['esm', 'cjs']] as const) {
  test(`an app declared with the ${declaredWith} build runs through the ${registeredWith} build's plugin`, async (t) => {
    const { CatsModule, CatsService } = declareApp(builds[declaredWith])
    const app = Fastify()
    t.after(() => app.close())
    await app.register(builds[registeredWith].decoratorPlugin, { module: CatsModule as esm.Type })

    // Injection by type, and Reflector metadata read through the injected Reflector (the other build's class as token).
    assert.deepEqual((await app.inject({ url: '/cats/one/1', headers: { 'x-role': 'admin' } })).json(), { id: '1', name: 'Tom' })
    const refused = await app.inject({ url: '/cats/one/1', headers: { 'x-role': 'guest' } })
    assert.equal(refused.statusCode, 403)
    assert.deepEqual(refused.json(), { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
    // A thrown exception of the other build answers as one of the registering build's.
    const missing = await app.inject({ url: '/cats/one/2', headers: { 'x-role': 'admin' } })
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), { statusCode: 404, message: 'cat 2 not found', error: 'Not Found' })
    assert.deepEqual((await app.inject('/cats/forbidden')).json(), { statusCode: 403, message: 'not for you', error: 'Forbidden' })
    // @Catch(NotFoundException) of the declaring build catches it.
    assert.deepEqual((await app.inject('/cats/filtered/3')).json(), { filtered: 'cat 3 not found' })
    // REQUEST and VERSION_NEUTRAL are the same tokens in both builds.
    assert.deepEqual((await app.inject('/cats/neutral')).json(), { url: '/cats/neutral' })
    // A StreamableFile of the other build is sent as a file.
    const file = await app.inject('/cats/file')
    assert.equal(file.body, 'a,b\n')
    assert.equal(file.headers['content-type'], 'text/csv')
    assert.equal(file.headers['content-length'], '4')
    // The container, and the Reflector token of either build.
    assert.equal(app.container.get(CatsService).find('1').name, 'Tom')
    assert.ok(app.container.get(builds[declaredWith].Reflector) instanceof builds[registeredWith].Reflector)
  })
}

test('createTestApp of either build runs an app declared with the other', async (t) => {
  for (const [declaredWith, testing] of [['esm', cjsTesting], ['cjs', esmTesting]] as const) {
    const { CatsModule, CatsService } = declareApp(builds[declaredWith])
    const app = await testing.createTestApp(CatsModule as esm.Type, { overrides: [{ provide: CatsService, useValue: { find: (id: string) => ({ id, name: 'Fake' }) } }] }, t)
    assert.deepEqual((await app.inject({ url: '/cats/one/9', headers: { 'x-role': 'admin' } })).json(), { id: '9', name: 'Fake' })
  }
})

test('a second registration through the other build is recognised as the same plugin', async () => {
  const { CatsModule } = declareApp(esm)
  const app = Fastify()
  await app.register(esm.decoratorPlugin, { module: CatsModule as esm.Type })
  await assert.rejects(async () => { await app.register(cjs.decoratorPlugin, { module: CatsModule as esm.Type }) }, { code: 'FDP_ERR_ALREADY_REGISTERED' })
  await app.close()
})
