// A node:test reporter for `npm test`: a dot per test (X when it fails), then each failure with
// its error and what its test file printed, then one line `N passed, N failed`. Given the
// environment variable TEST_SUMMARY_FILE, the line goes to that file instead, for scripts/test-lane.js
// to print once the lane's other output (the coverage table) is out.
import { writeFileSync } from 'node:fs'
import { inspect } from 'node:util'

export default async function * reporter (source) {
  let passed = 0
  let failed = 0
  let column = 0
  const failures = []
  /** What each test file wrote to stdout and stderr, shown only for files with a failure. */
  const output = new Map()
  for await (const event of source) {
    const { type, data } = event
    if (type === 'test:stdout' || type === 'test:stderr') {
      if (data.file !== undefined) output.set(data.file, (output.get(data.file) ?? '') + data.message)
      continue
    }
    if ((type !== 'test:pass' && type !== 'test:fail') || data.details?.type === 'suite') continue
    if (type === 'test:pass') {
      passed++
      yield '.'
    } else {
      failed++
      failures.push(data)
      yield 'X'
    }
    if (++column % 100 === 0) yield '\n'
  }
  if (column % 100 !== 0) yield '\n'
  const files = new Set()
  for (const { name, file, line, details } of failures) {
    const where = file === undefined ? '' : ` (${file}${line === undefined ? '' : `:${line}`})`
    const error = details?.error?.cause ?? details?.error
    yield `\nnot ok: ${name}${where}\n${indent(typeof error === 'string' ? error : inspect(error, { depth: 6 }))}\n`
    if (file !== undefined) files.add(file)
  }
  for (const file of files) {
    const printed = output.get(file)
    if (printed) yield `\noutput of ${file}:\n${indent(printed.trimEnd())}\n`
  }
  const summary = `${passed} passed, ${failed} failed\n`
  if (process.env.TEST_SUMMARY_FILE) {
    writeFileSync(process.env.TEST_SUMMARY_FILE, summary)
  } else {
    yield summary
  }
}

function indent (text) {
  return text.split('\n').map((line) => `  ${line}`).join('\n')
}
