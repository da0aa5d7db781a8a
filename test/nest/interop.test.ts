import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runWatched } from '../helpers/lazy-loading.js'

// The NestJS reader is loaded when @nestjs/common is installed, @nestjs/core only when the
// application injects one of its classes; each app runs in a process of its own.

test('with @nestjs/common installed, its decorated classes run; @nestjs/core is not loaded unless a class of it is injected', async () => {
  assert.deepEqual(await runWatched('nest-app'), ['hello from nest', 'imported: @nestjs/common, rxjs, the NestJS reader'])
  assert.deepEqual(await runWatched('nest-core-app'), ['fastify', 'imported: @nestjs/common, @nestjs/core, rxjs, the NestJS reader'])
})

test('without @nestjs/common, nothing of the reader is loaded and the application runs as before', async () => {
  assert.deepEqual(await runWatched('without-interceptors', { HIDE_NEST: '1' }), ['{"plain":true}', 'imported: none'])
})
