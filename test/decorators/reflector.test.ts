import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Module, Controller, Get, Injectable, Inject, SetMetadata, Reflector, UseGuards, UseInterceptors } from '../../plugin/index.js'
import type { CallHandler, CanActivate, ExecutionContext, NestInterceptor } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const Roles = (...roles: string[]) => SetMetadata('roles', roles)
const Public = () => SetMetadata('public', true)
const Tags = (tags: Record<string, number>) => SetMetadata('tags', tags)

@Roles('user')
@Tags({ a: 1, b: 1 })
class Target {
  @Roles('admin') @Tags({ b: 2 }) both () {}
  @Public() onlyHandler () {}
  none () {}
  // Decorators apply bottom-up: the topmost one is written last and wins.
  @SetMetadata('k', 'top') @SetMetadata('k', 'bottom') twice () {}
}

@SetMetadata('single', 'classv')
class Single {
  @SetMetadata('single', 'handlerv') handler () {}
  @SetMetadata('obj', { x: 1 }) obj () {}
}

const reflector = new Reflector()
const { both, onlyHandler, none, twice } = Target.prototype

test('SetMetadata writes on handlers and classes; the returned decorator carries KEY', () => {
  assert.deepEqual(reflector.get('roles', both), ['admin'])
  assert.deepEqual(reflector.get('roles', Target), ['user'])
  assert.equal(reflector.get('public', onlyHandler), true)
  assert.equal(reflector.get('public', none), undefined)
  assert.equal(reflector.get('k', twice), 'top')
  assert.equal(Roles('x').KEY, 'roles')
  const key = Symbol('key')
  assert.equal(SetMetadata(key, 1).KEY, key)
})

test('Reflector.get accepts a key or a decorator carrying KEY', () => {
  assert.deepEqual(reflector.get(Roles('ignored'), both), ['admin'])
})

test('Reflector.createDecorator makes typed decorators with their own key', () => {
  const Permissions = Reflector.createDecorator<string[]>()
  const Level = Reflector.createDecorator<number, string>({ key: 'level', transform: (value) => `level-${value}` })
  const Flag = Reflector.createDecorator<boolean>()
  @Permissions(['read']) @Level(2)
  class Guarded {
    @Permissions(['write']) write () {}
    @Flag() flag () {}
  }
  assert.equal(typeof Permissions.KEY, 'symbol')
  assert.equal(Level.KEY, 'level')
  assert.deepEqual(reflector.get(Permissions, Guarded), ['read'])
  assert.deepEqual(reflector.get(Permissions, Guarded.prototype.write), ['write'])
  assert.deepEqual(reflector.getAllAndMerge(Permissions, [Guarded.prototype.write, Guarded]), ['write', 'read'])
  assert.equal(reflector.get('level', Guarded), 'level-2')
  assert.deepEqual(reflector.get(Flag, Guarded.prototype.flag), {})
  // Two decorators never share a key by accident.
  assert.notEqual(Reflector.createDecorator().KEY, Reflector.createDecorator().KEY)
})

test('Reflector.getAll keeps one entry per target, undefined included', () => {
  assert.deepEqual(reflector.getAll('roles', [both, Target]), [['admin'], ['user']])
  assert.deepEqual(reflector.getAll('public', [onlyHandler, Target]), [true, undefined])
  assert.deepEqual(reflector.getAll('nothing', [none, Target]), [undefined, undefined])
})

test('Reflector.getAllAndOverride gives the first defined value', () => {
  assert.deepEqual(reflector.getAllAndOverride('roles', [both, Target]), ['admin'])
  assert.deepEqual(reflector.getAllAndOverride('roles', [none, Target]), ['user'])
  assert.equal(reflector.getAllAndOverride('public', [onlyHandler, Target]), true)
  assert.equal(reflector.getAllAndOverride('nothing', [none, Target]), undefined)
})

test('Reflector.getAllAndMerge merges as NestJS does', () => {
  assert.deepEqual(reflector.getAllAndMerge('roles', [both, Target]), ['admin', 'user'])
  assert.deepEqual(reflector.getAllAndMerge('single', [Single.prototype.handler, Single]), ['handlerv', 'classv'])
  assert.deepEqual(reflector.getAllAndMerge('public', [onlyHandler, Target]), [true])
  assert.deepEqual(reflector.getAllAndMerge('obj', [Single.prototype.obj, Single]), { x: 1 })
  assert.deepEqual(reflector.getAllAndMerge('nothing', [none, Target]), [])
  // Plain objects merge, later targets overriding earlier ones.
  const merged = reflector.getAllAndMerge('tags', [both, Target])
  assert.deepEqual(merged, { b: 1, a: 1 })
  assert.deepEqual(Object.keys(merged), ['b', 'a'])
})

@Injectable()
class RolesGuard implements CanActivate {
  constructor (@Inject(Reflector) private readonly reflector: Reflector) {}
  canActivate (ctx: ExecutionContext) {
    if (this.reflector.getAllAndOverride('public', [ctx.getHandler(), ctx.getClass()])) return true
    const roles = this.reflector.getAllAndMerge<string[]>('roles', [ctx.getHandler(), ctx.getClass()])
    const given = String(ctx.switchToHttp().getRequest().headers['x-role'])
    return roles.includes(given)
  }
}

@Injectable()
class RolesEcho implements NestInterceptor {
  constructor (@Inject(Reflector) private readonly reflector: Reflector) {}
  async intercept (ctx: ExecutionContext, next: CallHandler) {
    return { roles: this.reflector.getAll('roles', [ctx.getHandler(), ctx.getClass()]), result: await next.handle() }
  }
}

@Controller('docs')
@UseGuards(RolesGuard)
@UseInterceptors(RolesEcho)
@Roles('reader')
class DocsController {
  @Get() read () { return 'read' }
  @Get('edit') @Roles('editor') edit () { return 'edit' }
  @Get('open') @Public() open () { return 'open' }
}

@Module({ controllers: [DocsController] })
class DocsModule {}

test('a custom Roles decorator read by an injected Reflector in a guard and an interceptor', async (t) => {
  const app = await build(t, DocsModule)
  const as = async (url: string, role?: string) => app.inject({ url, headers: role ? { 'x-role': role } : {} })
  assert.deepEqual((await as('/docs', 'reader')).json(), { roles: [null, ['reader']], result: 'read' })
  assert.equal((await as('/docs', 'editor')).statusCode, 403)
  assert.deepEqual((await as('/docs/edit', 'editor')).json(), { roles: [['editor'], ['reader']], result: 'edit' })
  assert.equal((await as('/docs/edit', 'reader')).statusCode, 200)
  assert.equal((await as('/docs/edit', 'other')).statusCode, 403)
  assert.equal((await as('/docs/open')).statusCode, 200)
})

test('Reflector listed among a module\'s providers is still the injected builtin', async (t) => {
  @Injectable()
  class HasReflector {
    constructor (@Inject(Reflector) readonly reflector: Reflector) {}
  }
  @Controller('listed')
  class Listed {
    constructor (@Inject(HasReflector) private readonly holder: HasReflector) {}
    @Get() @Roles('reader') get () { return this.holder.reflector.get('roles', Listed.prototype.get) }
  }
  @Module({ controllers: [Listed], providers: [HasReflector, Reflector] })
  class ListedModule {}
  const app = await build(t, ListedModule)
  const res = await app.inject('/listed')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), ['reader'])
})
