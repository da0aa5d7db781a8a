import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Hook, type CanActivate } from '../../plugin/index.js'
import { hooksOf } from '../../plugin/routing/hooks.js'
import { enhancerLists } from '../../plugin/decorators/enhancers.js'
import { kGuards, kHooks } from '../../plugin/util/symbols.js'
import { Body, Controller, Get, Module, Param, Post } from '../../plugin/index.js'
import { controllerDefinition, routeDefinitions } from '../../plugin/decorators/controller.js'
import { paramDefinitions } from '../../plugin/decorators/params.js'
import { declaration, declare, declareMember, memberDeclaration, ownDeclaration, ownMemberDeclaration } from '../../plugin/util/metadata.js'
import { build } from '../helpers/app.js'

type Lookup = 'getMetadata' | 'getOwnMetadata' | 'hasOwnMetadata'

// The keys reflect-metadata is asked about while `run` runs.
function keysAskedDuring (run: () => void): unknown[] {
  const asked: unknown[] = []
  const lookups: Lookup[] = ['getMetadata', 'getOwnMetadata', 'hasOwnMetadata']
  const originals = lookups.map((name) => Reflect[name])
  lookups.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown
    ;(Reflect as unknown as Record<Lookup, unknown>)[name] = (key: unknown, ...rest: unknown[]) => { asked.push(key); return original.call(Reflect, key, ...rest) }
  })
  try {
    run()
  } finally {
    lookups.forEach((name, i) => { (Reflect as unknown as Record<Lookup, unknown>)[name] = originals[i] })
  }
  return asked
}

const written = (globalThis as unknown as Record<symbol, Set<symbol>>)[Symbol.for('fastify-decorator-plugin.writtenKeys')]

class AllowAll implements CanActivate { canActivate () { return true } }

test('a key no decorator has written is absent from every class, without a lookup in reflect-metadata; once written, it is read there', () => {
  assert.ok(!written.has(kHooks) && !written.has(kGuards), 'no decorator of this file has run yet')
  class Plain {}
  const before = keysAskedDuring(() => {
    assert.deepEqual(hooksOf(Plain), [])
    assert.deepEqual(enhancerLists(Plain).guards, [])
  })
  assert.deepEqual(before.filter((key) => key === kHooks || key === kGuards), [])

  class Base {
    @Hook('onRequest') audit () {}
  }
  class Derived extends Base {}
  const after = keysAskedDuring(() => {
    assert.deepEqual(hooksOf(Derived).map((hook) => hook.key), ['audit'])
    assert.deepEqual(hooksOf(Plain), [])
  })
  assert.ok(after.includes(kHooks))
})

test('the written keys are shared by every copy of the package in the process, as the keys are', () => {
  // What another copy's decorator does: records its key in the shared set, writes through reflect-metadata.
  class Guarded {}
  written.add(kGuards)
  Reflect.defineMetadata(kGuards, [AllowAll], Guarded)
  assert.deepEqual(enhancerLists(Guarded).guards, [AllowAll])
})

// Declarations: what @Controller(), the route and the parameter decorators keep on classes.

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
