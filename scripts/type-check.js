// The types lane of `npm test`: tsc over the type tests (test/types) and over the whole project,
// each a check that passes when tsc reports nothing. Ends with one line `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc')
const checks = [
  ['test/types: the public types, by their type tests', ['-p', 'test/types/tsconfig.json']],
  ['tsconfig.json: the sources, tests, examples and benchmarks', ['--noEmit', '-p', 'tsconfig.json']]
]
let passed = 0
let failed = 0
for (const [name, args] of checks) {
  const result = spawnSync(process.execPath, [tsc, ...args], { stdio: 'inherit' })
  if (result.status === 0) {
    passed++
  } else {
    failed++
    process.stdout.write(`not ok: ${name} (tsc ${args.join(' ')})\n`)
  }
}
process.stdout.write(`${passed} passed, ${failed} failed\n`)
process.exitCode = failed === 0 ? 0 : 1
