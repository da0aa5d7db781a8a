import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// In a fresh process, so that nothing has loaded the peers before: through tsx (a loader hook
// serving the file as source), a peer that requires JSON files still loads.
test('requirePeer loads peers that require JSON files, under a loader hook too', () => {
  const script = `
    const { default: requirePeer } = await import(${JSON.stringify(fileURLToPath(new URL('../../plugin/util/require-peer.cts', import.meta.url)))})
    const validator = requirePeer('class-validator')
    const Ajv = requirePeer('ajv').default
    process.stdout.write(JSON.stringify([typeof validator.isEmail, new Ajv().compile({ type: 'string' })('x')]))
  `
  const output = execFileSync(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { encoding: 'utf8', stdio: 'pipe' })
  assert.deepEqual(JSON.parse(output), ['function', true])
})
