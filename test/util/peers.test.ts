import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { importOptionalPeer } from '../../plugin/util/peers.js'

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/peers/${name}`, import.meta.url))

test('importOptionalPeer gives an installed peer, ES-module-only ones included', async () => {
  const constants = await importOptionalPeer('@nestjs/common/constants.js')
  assert.equal(typeof constants.MODULE_METADATA, 'object')
})

test('importOptionalPeer gives undefined for a peer that is not installed, or a file it does not have', async () => {
  assert.equal(await importOptionalPeer('fdp-no-such-peer'), undefined)
  assert.equal(await importOptionalPeer('@fdp-no-such-scope/peer/file.js'), undefined)
  assert.equal(await importOptionalPeer('@nestjs/common/no-such-file.js'), undefined)
})

test('importOptionalPeer throws, naming the peer, when an installed one fails to load', async () => {
  await assert.rejects(importOptionalPeer(fixture('missing-dependency.mjs')), (error: Error) => {
    assert.match(error.message, /missing-dependency\.mjs is installed but could not be loaded: Cannot find package 'fdp-no-such-dependency'/)
    assert.equal((error.cause as { code?: string }).code, 'ERR_MODULE_NOT_FOUND')
    return true
  })
  await assert.rejects(importOptionalPeer(fixture('throws.mjs')), /throws\.mjs is installed but could not be loaded: broken on load/)
})
