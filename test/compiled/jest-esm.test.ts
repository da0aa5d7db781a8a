// Jest in ES module mode (node --experimental-vm-modules, a "type": "module" project), where
// Jest's own module loader cannot require() an ES-module-only package: NestJS 12's are. The
// package must still read @nestjs/common's decorators there, not take NestJS for absent.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jestReport } from '../helpers/jest.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'fdp-jest-esm-'))
after(() => rmSync(dir, { recursive: true, force: true }))

// Plain JavaScript, the decorators applied as functions: nothing to transform.
const spec = `
import 'reflect-metadata'
import { Controller, Get, Inject, Injectable, Module } from '@nestjs/common'
import { Test } from 'fastify-decorator-plugin/testing'

class Greeter {
  constructor (word) { this.word = word }
  greet () { return this.word + ', world' }
}
Inject('WORD')(Greeter, undefined, 0)
Injectable()(Greeter)

class GreetingController {
  constructor (greeter) { this.greeter = greeter }
  hello () { return { text: this.greeter.greet() } }
}
Inject(Greeter)(GreetingController, undefined, 0)
Get('hello')(GreetingController.prototype, 'hello', Object.getOwnPropertyDescriptor(GreetingController.prototype, 'hello'))
Controller('greeting')(GreetingController)

class AppModule {}
Module({ controllers: [GreetingController], providers: [Greeter, { provide: 'WORD', useValue: 'hello' }] })(AppModule)

test('a NestJS-decorated module is built and served', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  expect(moduleRef.get(Greeter).greet()).toBe('hello, world')
  const app = moduleRef.createNestApplication()
  await app.init()
  expect((await app.inject('/greeting/hello')).json()).toEqual({ text: 'hello, world' })
  await app.close()
})
`

test('under Jest in ES module mode, @nestjs/common\'s decorators are read', () => {
  const dist = join(root, 'dist', 'wrapper')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'jest-esm-app', private: true, type: 'module' }))
  writeFileSync(join(dir, 'jest.config.js'), `export default ${JSON.stringify({
    testEnvironment: 'node',
    transform: {},
    testMatch: ['**/*.spec.mjs'],
    // The package as built, and the repository's own dependencies, without an install.
    moduleNameMapper: { '^fastify-decorator-plugin/testing$': join(dist, 'testing.js'), '^fastify-decorator-plugin$': join(dist, 'index.js') },
    modulePaths: [join(root, 'node_modules')]
  })}\n`)
  writeFileSync(join(dir, 'greeting.spec.mjs'), spec)
  const result = jestReport(join(root, 'node_modules', 'jest', 'bin', 'jest.js'), dir, [], ['--experimental-vm-modules'])
  assert.equal(result.numFailedTests, 0, result.testResults.map(({ message }) => message).join('\n'))
  assert.equal(result.numPassedTests, 1)
})
