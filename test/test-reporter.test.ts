// `npm test`'s lanes: compact progress, the failures in full, and one verdict line at the end.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const scripts = fileURLToPath(new URL('../scripts/', import.meta.url))
const reporter = ['--test-reporter', join(scripts, 'test-reporter.js'), '--test-reporter-destination', 'stdout']

function specs (t: { after: (fn: () => void) => void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fdp-reporter-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code)
  return dir
}

const header = 'import { test } from \'node:test\'\nimport assert from \'node:assert/strict\'\n'
// The runs are top-level runs of their own, not subprocesses of this one's runner.
const { TEST_SUMMARY_FILE: _, NODE_TEST_CONTEXT: __, ...env } = process.env

test('a passing run prints a dot per test and ends with the verdict; what passing files print stays out', (t) => {
  const dir = specs(t, {
    'a.test.mjs': `${header}test('one', () => { console.log('chatter of a passing file') })\ntest('two', async (t) => { await t.test('nested', () => {}) })\n`
  })
  const result = spawnSync(process.execPath, ['--test', ...reporter, 'a.test.mjs'], { cwd: dir, encoding: 'utf8', env })
  assert.equal(result.status, 0, result.stdout + result.stderr)
  assert.equal(result.stdout, '...\n3 passed, 0 failed\n')
})

test('a failing run shows each failure, with its error and its file\'s output, ends with the verdict and exits non-zero', (t) => {
  const dir = specs(t, {
    'a.test.mjs': `${header}test('good', () => {})\ntest('bad', () => { assert.equal(1, 2) })\n`,
    'b.test.mjs': 'console.error(\'set-up went wrong\')\nthrow new Error(\'cannot load\')\n',
    'c.test.mjs': `${header}test('quiet', () => { console.log('chatter of a passing file') })\n`
  })
  const result = spawnSync(process.execPath, ['--test', ...reporter, 'a.test.mjs', 'b.test.mjs', 'c.test.mjs'], { cwd: dir, encoding: 'utf8', env })
  assert.equal(result.status, 1)
  const lines = result.stdout.trimEnd().split('\n')
  assert.equal(lines[0], '.XX.')
  assert.equal(lines.at(-1), '2 passed, 2 failed')
  assert.match(result.stdout, /not ok: bad \(.*a\.test\.mjs:4\)\n {2}AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n[^]*1 !== 2/)
  assert.match(result.stdout, /not ok: .*b\.test\.mjs/)
  assert.match(result.stdout, /output of .*b\.test\.mjs:\n {2}set-up went wrong\n[^]*Error: cannot load/)
  assert.doesNotMatch(result.stdout, /chatter/)
})

test('a lane prints the verdict after everything its command prints, and keeps the command\'s exit status', (t) => {
  const dir = specs(t, {
    'a.test.mjs': `${header}test('good', () => {})\n`,
    'b.test.mjs': `${header}test('bad', () => { assert.fail('no') })\n`,
    // Stands in for c8: runs the tests, then prints its table.
    'wrap.mjs': `import { spawnSync } from 'node:child_process'
const result = spawnSync(process.execPath, ['--test', ...${JSON.stringify(reporter)}, ...process.argv.slice(2)], { stdio: 'inherit' })
console.log('coverage table')
process.exitCode = result.status
`
  })
  const lane = (...files: string[]) => spawnSync(process.execPath, [join(scripts, 'test-lane.js'), process.execPath, 'wrap.mjs', ...files], { cwd: dir, encoding: 'utf8', env })
  const passing = lane('a.test.mjs')
  assert.equal(passing.status, 0)
  assert.equal(passing.stdout, '.\ncoverage table\n1 passed, 0 failed\n')
  const failing = lane('a.test.mjs', 'b.test.mjs')
  assert.equal(failing.status, 1)
  assert.match(failing.stdout, /coverage table\n1 passed, 1 failed\n$/)
  assert.equal(failing.stdout.match(/passed, \d+ failed/g)?.length, 1)
})
