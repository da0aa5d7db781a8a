import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import { Module, Controller, Get, Inject, Injectable, Req, FASTIFY, type Request } from '../plugin/index.js'
import { build } from './helpers/app.js'

// A controller that adds a hook and a request decoration to the context FASTIFY gives it.
@Controller('a')
class AController {
  constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
  onModuleInit () {
    this.fastify.decorateRequest('onlyA', 'a')
    this.fastify.addHook('onRequest', async (request, reply) => { reply.header('x-a', 'yes') })
  }

  @Get() get (@Req() req: Request) { return { onlyA: (req as any).onlyA ?? null } }
}

@Controller('b')
class BController {
  constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
  @Get() get (@Req() req: Request) { return { onlyA: (req as any).onlyA ?? null } }
}

@Injectable()
class ModuleScoped { constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {} }

@Module({ controllers: [AController, BController], providers: [ModuleScoped] })
class AppModule {}

test('what a controller adds to its context stays inside it', async (t) => {
  const app = await build(t, AppModule, {}, (app) => app.get('/plain', async (req) => ({ onlyA: (req as any).onlyA ?? null })))

  const a = await app.inject('/a')
  assert.deepEqual(a.json(), { onlyA: 'a' })
  assert.equal(a.headers['x-a'], 'yes')

  const b = await app.inject('/b')
  assert.deepEqual(b.json(), { onlyA: null })
  assert.equal(b.headers['x-a'], undefined)

  const plain = await app.inject('/plain')
  assert.deepEqual(plain.json(), { onlyA: null })
  assert.equal(plain.headers['x-a'], undefined)
  assert.equal(app.hasRequestDecorator('onlyA'), false)
})

test('each controller gets its own encapsulated instance, a child of its module\'s', async (t) => {
  const app = await build(t, AppModule)
  const a = app.container.get(AController).fastify
  const b = app.container.get(BController).fastify
  const module = app.container.get(ModuleScoped).fastify
  assert.notEqual(a, b)
  assert.notEqual(a, app)
  assert.notEqual(module, app)
  assert.notEqual(module, a)
  assert.equal(a.prefix, '/a')
  assert.equal(b.prefix, '/b')
  assert.equal(a.hasRequestDecorator('onlyA'), true)
  assert.equal(b.hasRequestDecorator('onlyA'), false)
  assert.equal(module.hasRequestDecorator('onlyA'), false)
  // Fastify builds a child context from its parent's: the module's context is in the chain.
  assert.ok(Object.prototype.isPrototypeOf.call(module, a))
  assert.ok(Object.prototype.isPrototypeOf.call(module, b))
  assert.ok(Object.prototype.isPrototypeOf.call(app, module))
})

test('a module\'s context is shared by its controllers and separate from other modules', async (t) => {
  @Injectable()
  class Installer {
    constructor (@Inject(FASTIFY) readonly fastify: FastifyInstance) {}
    onModuleInit () { this.fastify.addHook('onRequest', async (request, reply) => { reply.header('x-module', 'one') }) }
  }
  @Controller('one')
  class One { @Get() get () { return 'one' } }
  @Controller('one-more')
  class OneMore { @Get() get () { return 'one-more' } }
  @Module({ controllers: [One, OneMore], providers: [Installer] })
  class OneModule {}
  @Controller('two')
  class Two { @Get() get () { return 'two' } }
  @Module({ imports: [OneModule], controllers: [Two] })
  class Root {}

  const app = await build(t, Root)
  assert.equal((await app.inject('/one')).headers['x-module'], 'one')
  assert.equal((await app.inject('/one-more')).headers['x-module'], 'one')
  const two = await app.inject('/two')
  assert.equal(two.body, 'two')
  assert.equal(two.headers['x-module'], undefined)
})
