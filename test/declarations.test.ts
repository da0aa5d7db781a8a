import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Body, Controller, Get, Module, Param, Post } from '../plugin/index.js'
import { controllerDefinition, routeDefinitions } from '../plugin/controller.js'
import { paramDefinitions } from '../plugin/params.js'
import { declaration, declare, declareMember, memberDeclaration, ownDeclaration, ownMemberDeclaration } from '../plugin/metadata.js'
import { build } from './helpers/app.js'

const kThing = Symbol('thing')

test('a declaration is the target\'s own or inherited through the prototype chain; member declarations likewise', () => {
  class Base {}
  class Derived extends Base {}
  declare(Base, kThing, 'base')
  assert.equal(ownDeclaration(Base, kThing), 'base')
  assert.equal(ownDeclaration(Derived, kThing), undefined)
  assert.equal(declaration(Derived, kThing), 'base')
  declare(Derived, kThing, 'derived')
  assert.equal(declaration(Derived, kThing), 'derived')
  assert.equal(declaration(Base, kThing), 'base')

  declareMember(Base.prototype, kThing, 'find', ['base find'])
  declareMember(Derived.prototype, kThing, 'list', ['derived list'])
  assert.deepEqual(memberDeclaration(Derived.prototype, kThing, 'find'), ['base find'])
  assert.deepEqual(memberDeclaration(Derived.prototype, kThing, 'list'), ['derived list'])
  assert.equal(ownMemberDeclaration(Derived.prototype, kThing, 'find'), undefined)
  assert.equal(memberDeclaration(Base.prototype, kThing, 'list'), undefined)
})

test('controllers, routes and parameters are declared on the class, invisible to enumeration, and cost no reflect-metadata entry', () => {
  @Controller('cats')
  class CatsController {
    @Get(':id') find (@Param('id') id: string) { return id }
    @Post() create (@Body() body: unknown) { return body }
  }
  assert.equal(controllerDefinition(CatsController)?.path, 'cats')
  assert.deepEqual(routeDefinitions(CatsController).map((route) => route.key), ['find', 'create'])
  assert.deepEqual(paramDefinitions(CatsController.prototype, 'find').map((param) => param.kind), ['param'])
  // No metadata of the plugin's (its keys are symbols; tsc's design types, strings, may be there).
  assert.deepEqual(Reflect.getOwnMetadataKeys(CatsController), [])
  assert.deepEqual(Reflect.getOwnMetadataKeys(CatsController.prototype, 'find').filter((key) => typeof key === 'symbol'), [])
  assert.deepEqual(Object.keys(CatsController), [])
  assert.deepEqual({ ...CatsController }, {})
  const enumerated: string[] = []
  for (const key in CatsController.prototype) enumerated.push(key)
  assert.deepEqual(enumerated, [])
})

test('a subclass adds routes and parameters of its own without writing into its base class\'s', async (t) => {
  @Controller('base')
  class BaseController {
    @Get(':id') find (@Param('id') id: string) { return { base: id } }
  }
  @Controller('derived')
  class DerivedController extends BaseController {
    @Post() create (@Body() body: unknown) { return { derived: body } }
  }
  @Module({ controllers: [BaseController, DerivedController] })
  class AppModule {}
  assert.deepEqual(routeDefinitions(BaseController).map((route) => route.key), ['find'])
  assert.deepEqual(routeDefinitions(DerivedController).map((route) => route.key), ['find', 'create'])
  assert.deepEqual(paramDefinitions(BaseController.prototype, 'create'), [])
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/derived/7')).json(), { base: '7' })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/derived', payload: { a: 1 } })).json(), { derived: { a: 1 } })
  assert.equal((await app.inject({ method: 'POST', url: '/base' })).statusCode, 404)
})
