import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Exclude, Expose, Transform } from 'class-transformer'
import {
  ClassSerializerInterceptor, Controller, Get, Module, Reflector, SerializeOptions, StreamableFile, UseInterceptors
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

class UserEntity {
  id!: number
  firstName!: string
  @Exclude() password!: string
  @Expose({ groups: ['admin'] }) role!: string
  @Transform(({ value }) => value.toUpperCase()) city!: string
  constructor (partial: Partial<UserEntity>) { Object.assign(this, partial) }
  @Expose() get fullName () { return `${this.firstName} (#${this.id})` }
}

const user = () => new UserEntity({ id: 1, firstName: 'Tom', password: 'secret', role: 'admin', city: 'oslo' })

@Controller('users')
@UseInterceptors(ClassSerializerInterceptor)
class UsersController {
  @Get('one') one () { return user() }
  @Get('many') many () { return [user(), user()] }
  @Get('async') async later () { return user() }
  @Get('admin') @SerializeOptions({ groups: ['admin'] }) admin () { return user() }
  @Get('plain') @SerializeOptions({ type: UserEntity }) plain () { return { id: 2, firstName: 'Ann', password: 'x', role: 'r', city: 'rome' } }
  @Get('text') text () { return 'as it is' }
  @Get('file') file () { return new StreamableFile(Buffer.from('bytes')) }
}

@Controller('strategy')
@SerializeOptions({ strategy: 'excludeAll' })
class StrategyController {
  @Get() @UseInterceptors(ClassSerializerInterceptor) get () { return user() }
}

@Module({ controllers: [UsersController, StrategyController] })
class UsersModule {}

test('ClassSerializerInterceptor turns instances into plain objects with class-transformer; @SerializeOptions() on the handler or the controller', async (t) => {
  const app = await build(t, UsersModule)
  const json = async (url: string) => (await app.inject(url)).json()
  const plain = { id: 1, firstName: 'Tom', city: 'OSLO', fullName: 'Tom (#1)' }
  assert.deepEqual(await json('/users/one'), plain)
  assert.deepEqual(await json('/users/many'), [plain, plain])
  assert.deepEqual(await json('/users/async'), plain)
  assert.deepEqual(await json('/users/admin'), { ...plain, role: 'admin' })
  assert.deepEqual(await json('/users/plain'), { id: 2, firstName: 'Ann', city: 'ROME', fullName: 'Ann (#2)' })
  assert.equal((await app.inject('/users/text')).body, 'as it is')
  assert.equal((await app.inject('/users/file')).body, 'bytes')
  assert.deepEqual(await json('/strategy'), { fullName: 'Tom (#1)' })
})

test('ClassSerializerInterceptor made by hand takes default options, as useGlobalInterceptors() does', async (t) => {
  @Controller('admins')
  class AdminsController { @Get() get () { return user() } }
  @Module({ controllers: [AdminsController] })
  class AdminsModule {}
  const reflector = new Reflector()
  const app = await build(t, AdminsModule, { globalInterceptors: [new ClassSerializerInterceptor(reflector, { groups: ['admin'] })] })
  assert.equal((await app.inject('/admins')).json().role, 'admin')
})
