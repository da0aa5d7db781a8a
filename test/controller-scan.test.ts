import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Post, Param, Header, UseGuards, type CanActivate } from '../plugin/index.js'
import { scanModules } from '../plugin/scanner.js'
import { scanControllers, enhancerClasses } from '../plugin/controller-scan.js'

class AllowGuard implements CanActivate { canActivate () { return true } }

test('controllers and handlers that declare nothing share one frozen set of empty declarations', async () => {
  @Controller('a')
  class First {
    @Get() list () { return [] }
    @Post(':id') create (@Param('id') id: string) { return id }
  }
  @Controller('b')
  class Second { @Get() list () { return [] } }
  @Module({ controllers: [First, Second] })
  class AppModule {}

  const [first, second] = scanControllers((await scanModules(AppModule)).root)
  const handlers = [...first.handlers, ...second.handlers]
  for (const handler of handlers) {
    // Kept until registration: one set for all, not one per handler.
    assert.equal(handler.enhancers, first.enhancers)
    assert.equal(handler.headers, handlers[0].headers)
    assert.equal(handler.options, handlers[0].options)
  }
  assert.equal(second.enhancers, first.enhancers)
  for (const shared of [first.enhancers, first.enhancers.guards, first.enhancers.filters, handlers[0].headers, handlers[0].options]) {
    assert.equal(Object.isFrozen(shared), true)
  }
  assert.deepEqual(first.enhancers, { guards: [], pipes: [], interceptors: [], filters: [] })
  assert.deepEqual(handlers[0].headers, [])
  assert.deepEqual(handlers[0].options, { schema: undefined, config: undefined, constraints: undefined })
  assert.deepEqual(handlers.map((handler) => [handler.name, handler.status]), [['First.list', 200], ['First.create', 201], ['Second.list', 200]])
})

test('a controller or handler that declares something gets lists of its own', async () => {
  @UseGuards(AllowGuard)
  @Controller('c')
  class Guarded {
    @Get() plain () { return 'plain' }
    @Get('h') @Header('x-kind', 'own') headed () { return 'headed' }
    @Get('g') @UseGuards(AllowGuard) guarded () { return 'guarded' }
  }
  @Module({ controllers: [Guarded] })
  class AppModule {}

  const [scan] = scanControllers((await scanModules(AppModule)).root)
  const [plain, headed, guarded] = scan.handlers
  assert.deepEqual(scan.enhancers.guards, [AllowGuard])
  assert.deepEqual(plain.enhancers.guards, [])
  assert.deepEqual(headed.headers, [['x-kind', 'own']])
  assert.deepEqual(headed.enhancers.guards, [])
  assert.deepEqual(guarded.enhancers.guards, [AllowGuard])
  assert.notEqual(guarded.enhancers, plain.enhancers)
  assert.deepEqual(enhancerClasses(scan), [AllowGuard, AllowGuard])
})
