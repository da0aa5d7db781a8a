// Imports the package by its own name, as users do: resolved through package.json "exports"
// to the built dist/ (run `npm run build` first; `npm test` does).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { Module, Controller, Get, Injectable } from 'fastify-decorator-plugin'
import { createTestApp } from 'fastify-decorator-plugin/testing'

@Injectable()
class Greeter { greet () { return 'hello' } }

@Controller('greet')
class GreetController {
  constructor (private readonly greeter: Greeter) {}
  @Get() get () { return this.greeter.greet() }
}

@Module({ controllers: [GreetController], providers: [Greeter] })
class AppModule {}

test('fastify-decorator-plugin/testing resolves through the package exports to the built entry point', () => {
  const entry = import.meta.resolve('fastify-decorator-plugin/testing')
  assert.match(entry, /\/dist\/plugin\/testing\.js$/)
  assert.match(import.meta.resolve('fastify-decorator-plugin'), /\/dist\/plugin\/index\.js$/)
  // The CommonJS view of the same exports map points at the CommonJS build of the same entry.
  assert.equal(createRequire(import.meta.url).resolve('fastify-decorator-plugin/testing'), new URL(entry).pathname.replace('/dist/plugin/', '/dist/cjs/plugin/'))
})

test('createTestApp from the package entry point injects by type and applies overrides', async (t) => {
  const app = await createTestApp(AppModule, {}, t)
  assert.equal((await app.inject('/greet')).body, 'hello')
  const faked = await createTestApp(AppModule, { overrides: [{ provide: Greeter, useValue: { greet: () => 'fake' } }] }, t)
  const res = await faked.inject('/greet')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'fake')
})
