// Runs on tsc output (emitDecoratorMetadata): injection by type, no @Inject.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyRequest } from 'fastify'
import { Module, Controller, Get, Injectable, Inject, Optional, Scope, REQUEST, Reflector, UseGuards } from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

@Injectable()
class Repo { all () { return ['a'] } }

@Injectable()
class Service { constructor (readonly repo: Repo) {} }

@Controller('items')
class Items {
  constructor (private readonly service: Service) {}
  @Get() all () { return this.service.repo.all() }
}

@Module({ controllers: [Items], providers: [Repo, Service] })
class AppModule {}

test('constructor parameters are injected by their emitted types', async (t) => {
  const app = await build(t, AppModule)
  const res = await app.inject('/items')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), ['a'])
})

test('types across modules, @Inject mixed with types, and @Optional by type', async (t) => {
  @Injectable() class Clock { now () { return 7 } }
  @Module({ providers: [Clock], exports: [Clock] })
  class ClockModule {}
  @Injectable() class Absent {}
  @Injectable()
  class Report {
    constructor (readonly clock: Clock, @Inject('title') readonly title: string, @Optional() readonly absent?: Absent) {}
  }
  @Module({ imports: [ClockModule], providers: [Report, { provide: 'title', useValue: 'daily' }] })
  class ReportModule {}

  const app = await build(t, ReportModule)
  const report = app.container.get(Report)
  assert.equal(report.clock.now(), 7)
  assert.equal(report.title, 'daily')
  assert.equal(report.absent, undefined)
})

test('constructor parameters are inherited from a decorated base class', async (t) => {
  @Injectable() class Db { name = 'db' }
  @Injectable() class Cache { name = 'cache' }
  @Injectable()
  class BaseRepository { constructor (readonly db: Db) {} }
  @Injectable()
  class UserRepository extends BaseRepository {}
  @Injectable()
  class CachedRepository extends BaseRepository {
    constructor (db: Db, readonly cache: Cache) { super(db) }
  }
  @Controller('repos')
  class Repos {
    constructor (readonly users: UserRepository, readonly cached: CachedRepository) {}
    @Get() get () { return [this.users.db.name, this.cached.db.name, this.cached.cache.name] }
  }
  @Module({ controllers: [Repos], providers: [Db, Cache, UserRepository, CachedRepository] })
  class RepoModule {}

  const app = await build(t, RepoModule)
  assert.deepEqual((await app.inject('/repos')).json(), ['db', 'db', 'cache'])
  assert.equal(app.container.get(UserRepository).db, app.container.get(Db))
})

test('request scope by type bubbles to the controller', async (t) => {
  let built = 0
  @Injectable({ scope: Scope.REQUEST })
  class Caller { constructor (@Inject(REQUEST) readonly request: FastifyRequest) { built++ } }
  @Controller('me')
  class Me {
    constructor (readonly caller: Caller) {}
    @Get() get () { return this.caller.request.headers['x-user'] }
  }
  @Module({ controllers: [Me], providers: [Caller] })
  class MeModule {}

  const app = await build(t, MeModule)
  assert.equal((await app.inject({ url: '/me', headers: { 'x-user': 'ann' } })).body, 'ann')
  assert.equal((await app.inject({ url: '/me', headers: { 'x-user': 'bob' } })).body, 'bob')
  assert.equal(built, 2)
})

interface Mailer { send (to: string): void }

test('an interface-typed parameter without @Inject fails, naming class, index and the fix', async () => {
  @Injectable()
  class Notifier { constructor (readonly repo: Repo, readonly mailer: Mailer) {} }
  @Module({ providers: [Repo, Notifier] })
  class NotifyModule {}

  const error = await registrationError({ module: NotifyModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_METADATA')
  assert.match(error.message, /^Notifier in module NotifyModule: the constructor parameter at index \[1\] has the type Object at run time/)
  assert.match(error.message, /Name the token with @Inject\(token\) on that parameter of Notifier\./)
})

test('a class with dependencies and no decorator is told to add @Injectable(), not blamed on the compiler', async () => {
  class Undecorated { constructor (readonly repo: Repo) {} }
  @Module({ providers: [Repo, Undecorated] })
  class PlainModule {}
  const error = await registrationError({ module: PlainModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_METADATA')
  assert.equal(error.message, 'Undecorated in module PlainModule has a constructor parameter at index [0], but Undecorated has no decorator, so no type was recorded for its parameters. ' +
    'Add @Injectable() to Undecorated: with tsc or SWC and "emitDecoratorMetadata": true that records them; under tsx or esbuild also name each token with @Inject(token).')

  // The constructor of an undecorated base class: that class is the one to decorate.
  class Base { constructor (readonly repo: Repo) {} }
  @Injectable() class Derived extends Base {}
  @Module({ providers: [Repo, Derived] })
  class DerivedModule {}
  const inherited = await registrationError({ module: DerivedModule })
  assert.equal(inherited.code, 'FDP_ERR_MISSING_METADATA')
  assert.match(inherited.message, /^Derived in module DerivedModule has a constructor parameter at index \[0\], but Base, whose constructor it inherits, has no decorator/)
  assert.match(inherited.message, /Add @Injectable\(\) to Base:/)
  assert.doesNotMatch(inherited.message, /emit no decorator metadata/)
})

test('Test.createTestingModule with Reflector and a guard listed as providers, as NestJS specs do', async () => {
  @Injectable()
  class Gate {
    constructor (readonly reflector: Reflector) {}
    canActivate () { return true }
  }
  @Injectable() class Cats { all () { return ['tom'] } }
  @Controller('cats')
  @UseGuards(Gate)
  class CatsController {
    constructor (readonly cats: Cats) {}
    @Get() all () { return this.cats.all() }
  }
  const moduleRef = await Test.createTestingModule({ controllers: [CatsController], providers: [Cats, Gate, Reflector] }).compile()
  try {
    assert.deepEqual(moduleRef.get(CatsController).all(), ['tom'])
    assert.ok(moduleRef.get(Gate).reflector instanceof Reflector)
  } finally {
    await moduleRef.close()
  }
})
