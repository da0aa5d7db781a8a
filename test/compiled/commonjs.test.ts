// A CommonJS consumer require()s the built package: the CommonJS build, which Jest can load too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

const root = fileURLToPath(new URL('../../../', import.meta.url))

// Plain JavaScript: decorators are applied by hand, as a CommonJS codebase without a compiler would.
const consumer = `
const Fastify = require('fastify')
const { decoratorPlugin, Module, Controller, Get, Injectable, Inject } = require('fastify-decorator-plugin')
const { createTestApp } = require('fastify-decorator-plugin/testing')

class Greeter { greet () { return 'hello from CommonJS' } }
Injectable()(Greeter)
class GreetController {
  constructor (greeter) { this.greeter = greeter }
  get () { return { message: this.greeter.greet() } }
}
Inject(Greeter)(GreetController, undefined, 0)
Get()(GreetController.prototype, 'get', Object.getOwnPropertyDescriptor(GreetController.prototype, 'get'))
Controller('greet')(GreetController)
class AppModule {}
Module({ controllers: [GreetController], providers: [Greeter] })(AppModule)

async function main () {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: AppModule })
  const res = await app.inject('/greet')
  await app.close()
  const testApp = await createTestApp(AppModule)
  const again = await testApp.inject('/greet')
  await testApp.close()
  process.stdout.write(JSON.stringify({ status: res.statusCode, body: res.json(), again: again.json() }))
}
main().catch((error) => { console.error(error); process.exit(1) })
`

test('a CommonJS consumer can require() the package and run an application', () => {
  const [major, minor] = process.versions.node.split('.').map(Number)
  assert.ok(major > 20 || (major === 20 && minor >= 19), `needs Node >= 20.19, running ${process.versions.node}`)
  const output = execFileSync(process.execPath, ['--input-type=commonjs', '-e', consumer], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(output), { status: 200, body: { message: 'hello from CommonJS' }, again: { message: 'hello from CommonJS' } })
})

test('package.json: an ES module package whose require condition gives the CommonJS build, and its import condition an ES wrapper of it', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  assert.equal(pkg.engines.node, '>=20.19')
  assert.equal(pkg.type, 'module')
  for (const [entry, file] of [['.', 'index'], ['./testing', 'testing']]) {
    assert.equal(pkg.exports[entry].import.default, `./dist/wrapper/${file}.js`)
    // The ES build's declarations type the import condition.
    assert.equal(pkg.exports[entry].import.types, `./dist/plugin/${file}.d.ts`)
    assert.equal(pkg.exports[entry].require.default, `./dist/cjs/plugin/${file}.js`)
    assert.match(readFileSync(join(root, 'dist/wrapper', `${file}.js`), 'utf8'), new RegExp(`createRequire\\(import\\.meta\\.url\\)\\('\\.\\./cjs/plugin/${file}\\.js'\\)`))
  }
  assert.equal(pkg.main, './dist/cjs/plugin/index.js')
  // The CommonJS build is CommonJS whatever loads it: no require(esm) involved.
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'dist/cjs/package.json'), 'utf8')), { type: 'commonjs' })
  assert.match(readFileSync(join(root, 'dist/cjs/plugin/index.js'), 'utf8'), /^"use strict";/)
})
