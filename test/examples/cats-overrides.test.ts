// Replaces the example's service through the plugin option `overrides`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp } from '../../plugin/testing.js'
import { NotFoundException } from '../../plugin/index.js'
import { CatsModule } from '../../examples/cats/cats.module.js'
import { CatsService } from '../../examples/cats/cats.service.js'
import type { Cat } from '../../examples/cats/cat.js'
import type { CreateCatDto } from '../../examples/cats/create-cat.dto.js'

class FakeCatsService {
  readonly created: CreateCatDto[] = []
  findAll (): Cat[] { return [{ id: 42, name: 'Fake', age: 1, breed: 'Test' }] }
  findOne (id: number): Cat {
    if (id !== 42) throw new NotFoundException(`No fake cat ${id}`)
    return { id, name: 'Fake', age: 1, breed: 'Test' }
  }

  create (dto: CreateCatDto): Cat { this.created.push(dto); return { id: 43, ...dto } }
  remove (): void {}
}

test('a value override replaces CatsService for the controller', async (t) => {
  const fake = new FakeCatsService()
  const app = await createTestApp(CatsModule, { overrides: [{ provide: CatsService, useValue: fake }] }, t)
  assert.deepEqual((await app.inject('/cats')).json(), [{ id: 42, name: 'Fake', age: 1, breed: 'Test' }])
  assert.deepEqual((await app.inject('/cats/7')).json(), { statusCode: 404, message: 'No fake cat 7', error: 'Not Found' })
  assert.equal(app.container.get(CatsService), fake)

  // Guards and pipes around the service still run: the DTO reaches the fake as an instance.
  const created = await app.inject({ method: 'POST', url: '/cats', payload: { name: 'New', age: 1, breed: 'X' }, headers: { 'x-roles': 'admin' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { id: 43, name: 'New', age: 1, breed: 'X' })
  assert.equal(fake.created[0].constructor.name, 'CreateCatDto')
  assert.equal((await app.inject({ method: 'POST', url: '/cats', payload: { name: 'New', age: 1, breed: 'X' } })).statusCode, 403)
})

test('a class override is built instead of the real service', async (t) => {
  const app = await createTestApp(CatsModule, { overrides: [{ provide: CatsService, useClass: FakeCatsService }] }, t)
  assert.ok(app.container.get(CatsService) instanceof FakeCatsService)
  assert.deepEqual((await app.inject('/cats/42/card')).json(), { id: 42, name: 'Fake' })
})

test('overrides apply to one app only: another app gets the real service', async (t) => {
  await createTestApp(CatsModule, { overrides: [{ provide: CatsService, useClass: FakeCatsService }] }, t)
  const real = await createTestApp(CatsModule, {}, t)
  assert.deepEqual((await real.inject('/cats/1')).json(), { id: 1, name: 'Tom', age: 3, breed: 'Tabby' })
})
