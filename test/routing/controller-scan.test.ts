import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Post, Param, Header, UseGuards, type CanActivate } from '../../plugin/index.js'
import { scanModules } from '../../plugin/di/scanner.js'
import { routeDefinitions } from '../../plugin/decorators/controller.js'
import { scanControllers, controllerUse, type ForeignRoutes } from '../../plugin/routing/controller-scan.js'

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
  assert.deepEqual(controllerUse(scan).enhancers, [AllowGuard, AllowGuard])
})

// A stand-in for another library's reader (NestJS's): its metadata key, and what it is asked.
function foreignReader (onRead: (cls: Function) => void = () => {}) {
  const asked = { routes: [] as string[], params: [] as string[] }
  const reader: ForeignRoutes = {
    read: () => false,
    hasKeys: (keys) => keys.includes('foreign:route'),
    hasParamKeys: (cls, key) => { asked.params.push(`${cls.name}.${String(key)}`); return Reflect.hasMetadata('foreign:param', cls, key as string) },
    readRoutes: (cls) => { asked.routes.push(cls.name); onRead(cls) }
  }
  return { reader, asked }
}

test('the scan has a controller read by the other library\'s reader where its methods or parameters carry its metadata, and scans it again', async () => {
  const foreignRoute = (path: string): MethodDecorator => (target, key, descriptor) => { Reflect.defineMetadata('foreign:route', path, descriptor.value as object) }
  const foreignParam = (target: object, key: string | symbol | undefined, index: number): void => { Reflect.defineMetadata('foreign:param', index, target.constructor, key as string) }
  // What the reader writes: a route for each method with the library's route metadata and none of the plugin's.
  const read = (cls: Function): void => {
    for (const key of Object.getOwnPropertyNames(cls.prototype)) {
      const path: unknown = Reflect.getOwnMetadata('foreign:route', cls.prototype[key])
      if (typeof path === 'string' && !routeDefinitions(cls).some((route) => route.key === key)) Get(path)(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)!)
    }
  }
  @Controller('plain')
  class Plain {
    @Get() list () { return [] }
    @Get(':id') find (@Param('id') id: string) { return id }
  }
  @Controller('off-route')
  class OffRoute {
    @Get() list () { return [] }
    @foreignRoute('foreign') other () { return 'other' }
  }
  @Controller('on-route')
  class OnRoute {
    @Get() @foreignRoute('') list () { return [] }
  }
  @Controller('param')
  class ForeignParam {
    @Get(':id') find (@Param('id') id: string, @foreignParam other: string) { return id + other }
  }
  // Parameter types as TypeScript emits them, where one parameter has none of the plugin's decorators.
  Reflect.defineMetadata('design:paramtypes', [String], Plain.prototype, 'find')
  Reflect.defineMetadata('design:paramtypes', [String, String], ForeignParam.prototype, 'find')
  @Module({ controllers: [Plain, OffRoute, OnRoute, ForeignParam] })
  class AppModule {}

  const { reader, asked } = foreignReader(read)
  const [plain, offRoute, onRoute, param] = scanControllers((await scanModules(AppModule)).root, reader)
  assert.deepEqual(asked.routes, ['OffRoute', 'OnRoute', 'ForeignParam'])
  // Parameters are looked at only where one has no decorator of the plugin's, or no types were emitted.
  assert.deepEqual(asked.params, ['Plain.list', 'ForeignParam.find'])
  assert.deepEqual(plain.handlers.map((handler) => handler.name), ['Plain.list', 'Plain.find'])
  // Scanned again once read: the route the reader added is there.
  assert.deepEqual(offRoute.handlers.map((handler) => [handler.name, handler.path]), [['OffRoute.list', ''], ['OffRoute.other', 'foreign']])
  assert.deepEqual(onRoute.handlers.map((handler) => handler.name), ['OnRoute.list'])
  assert.deepEqual(param.handlers.map((handler) => handler.name), ['ForeignParam.find'])
})
