// Runs one lane of `npm test` (the command given as arguments, which runs node --test with
// scripts/test-reporter.js) and prints the reporter's `N passed, N failed` line as the lane's
// last line, after whatever the command prints once the tests are done (c8's coverage table).
// Exits with the command's status.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const [command, ...args] = process.argv.slice(2)
const dir = mkdtempSync(join(tmpdir(), 'fdp-lane-'))
const file = join(dir, 'summary')
let status = 1
try {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, TEST_SUMMARY_FILE: file } })
  status = result.status ?? 1
  let summary = ''
  try {
    summary = readFileSync(file, 'utf8')
  } catch {
    // The tests never reported (the command failed before or while starting them).
  }
  if (summary !== '') {
    process.stdout.write(summary)
    // A failed test fails the lane, whatever the command's own status.
    if (status === 0 && !/ 0 failed$/.test(summary.trim())) status = 1
  } else if (result.error) {
    process.stderr.write(`${command}: ${result.error.message}\n`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exitCode = status
