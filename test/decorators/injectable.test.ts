import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Injectable, Inject, Optional, Scope } from '../../plugin/index.js'
import { injectTokens, optionalParams } from '../../plugin/decorators/injectable.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

test('@Inject() with an undefined token fails at declaration, naming the class and parameter', () => {
  assert.throws(() => {
    @Injectable() class Broken { constructor (@Inject(undefined as any) readonly dep: unknown) {} }
    void Broken
  }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.equal(error.message, '@Inject() on parameter 0 of Broken was given undefined: the token is not defined yet (a circular import between files?). Use forwardRef(() => Token).')
    return true
  })
})

test('@Injectable({ scope }) with an unknown scope fails registration naming the class', async () => {
  @Injectable({ scope: 'SINGLETON' as any }) class Odd {}
  @Module({ providers: [Odd] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.match(error.message, /AppModule's providers\[0\] \(Odd\): scope must be DEFAULT, REQUEST or TRANSIENT, given string "SINGLETON"/)
})

test('a useClass provider takes the scope of its class unless it names one', async (t) => {
  let built = 0
  @Injectable({ scope: Scope.TRANSIENT }) class Impl { id = ++built }
  @Injectable()
  class User {
    constructor (@Inject('a') readonly a1: Impl, @Inject('a') readonly a2: Impl, @Inject('b') readonly b1: Impl, @Inject('b') readonly b2: Impl) {}
  }
  @Module({ providers: [User, { provide: 'a', useClass: Impl }, { provide: 'b', useClass: Impl, scope: Scope.DEFAULT }] })
  class AppModule {}
  const app = await build(t, AppModule)
  const user = app.container.get(User)
  assert.notEqual(user.a1, user.a2)
  assert.equal(user.b1, user.b2)
})

test('a subclass without a constructor of its own inherits the base class\'s @Inject tokens', async (t) => {
  @Injectable() class Repo { name = 'repo' }
  class Base { constructor (@Inject(Repo) readonly repo: Repo, @Optional() @Inject('missing') readonly missing?: unknown) {} }
  @Injectable() class Derived extends Base {}
  @Injectable()
  class Own extends Base {
    constructor (@Inject('name') readonly name: string, @Inject(Repo) repo: Repo) { super(repo) }
  }
  @Module({ providers: [Repo, Derived, Own, { provide: 'name', useValue: 'own' }] })
  class AppModule {}
  const app = await build(t, AppModule)
  const derived = app.container.get(Derived)
  assert.equal(derived.repo.name, 'repo')
  assert.equal(derived.missing, undefined)
  const own = app.container.get(Own)
  assert.deepEqual([own.name, own.repo], ['own', app.container.get(Repo)])
})

test('a subclass with a constructor of its own does not inherit the base class\'s @Optional()', async () => {
  class Base { constructor (@Optional() @Inject('maybe') readonly maybe?: unknown) {} }
  @Injectable()
  class Own extends Base {
    constructor (@Inject('required') readonly required: unknown) { super(undefined) }
  }
  @Module({ providers: [Own] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_UNKNOWN_DEPENDENCY')
  assert.match(error.message, /Cannot resolve "required" at index \[0\] of Own in module AppModule/)
})

test('a constructor keeps one map of @Inject() tokens and one set of @Optional() parameters, grown in place', () => {
  class Grown { constructor (readonly a: unknown, readonly b: unknown, readonly c: unknown) {} }
  Inject('A')(Grown, undefined, 0)
  Optional()(Grown, undefined, 0)
  const tokens = injectTokens(Grown)
  const optional = optionalParams(Grown)
  Inject('B')(Grown, undefined, 1)
  Inject('C')(Grown, undefined, 2)
  Optional()(Grown, undefined, 2)
  // No copy per decorator (a constructor's parameters would cost quadratic time and garbage to declare).
  assert.equal(injectTokens(Grown), tokens)
  assert.equal(optionalParams(Grown), optional)
  assert.deepEqual([...tokens], [[0, 'A'], [1, 'B'], [2, 'C']])
  assert.deepEqual([...optional!], [0, 2])
})
