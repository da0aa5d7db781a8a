// scripts/bundle.js, which both the package build and the bench build run over tsc's output.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('../scripts/bundle.js', import.meta.url))

/** A directory laid out as tsc's output of plugin/ is, with these files. */
function output (t: { after: (fn: () => void) => void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fdp-bundle-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

function bundle (dir: string): void {
  execFileSync(process.execPath, [script, dir], { encoding: 'utf8', stdio: 'pipe' })
}

const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()

test('a build without the testing entry (the bench\'s) bundles index.js alone; the CommonJS helper stays beside it, found from every module', async (t) => {
  const dir = output(t, {
    'index.js': 'import { name } from \'./names.js\'\nimport { greet } from \'./nested/greet.js\'\nexport const answer = greet(name)\n',
    'index.d.ts': 'export declare const answer: string\n',
    'names.js': 'import helper from \'./helper.cjs\'\nexport const name = helper(\'Tom\')\n',
    'nested/greet.js': 'import helper from \'../helper.cjs\'\nexport function greet (name) { return \'hello \' + helper(name) }\n',
    'nested/greet.d.ts': 'export declare function greet (name: string): string\n',
    'helper.cjs': 'module.exports = (value) => value.toUpperCase()\n'
  })
  bundle(dir)
  assert.deepEqual(files(dir), ['helper.cjs', 'index.d.ts', 'index.js', 'index.js.map', 'nested', 'nested/greet.d.ts'])
  const { answer } = await import(join(dir, 'index.js'))
  assert.equal(answer, 'hello TOM')
})

test('a module tsc emitted that no entry point reaches fails the build, named', (t) => {
  const dir = output(t, {
    'index.js': 'export const one = 1\n',
    'testing.js': 'export const two = 2\n',
    'orphan.js': 'export const three = 3\n'
  })
  assert.throws(() => bundle(dir), (error: any) => /not in the bundle, yet emitted as modules: orphan\.js/.test(error.stderr))
})
