import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { once } from 'node:events'
import http from 'node:http'

// The app process sits beside this file: TypeScript run through tsx, or tsc's JavaScript.
const typescript = import.meta.url.endsWith('.ts')
const script = fileURLToPath(new URL(`./shutdown-app.${typescript ? 'ts' : 'js'}`, import.meta.url))
const execArgv = typescript ? ['--import', 'tsx'] : []
// Time-bounded: a process that does not exit is killed and the test fails.
const limit = 15_000

interface Launched {
  port: number
  lines: string[]
  stderr: () => string
  next: (line: string) => Promise<void>
  exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  kill: (signal: NodeJS.Signals) => void
}

async function launch (args: string[] = []): Promise<Launched> {
  const child = spawn(process.execPath, [...execArgv, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const timer = setTimeout(() => child.kill('SIGKILL'), limit)
  const lines: string[] = []
  const waiters: Array<{ line: string, resolve: () => void }> = []
  let stderr = ''
  let partial = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  child.stdout.on('data', (chunk) => {
    const parts = (partial + chunk).split('\n')
    partial = parts.pop()!
    for (const line of parts) {
      lines.push(line)
      for (const waiter of waiters.filter((w) => line.startsWith(w.line))) waiter.resolve()
    }
  })
  const exited = once(child, 'exit').then(([code, signal]) => {
    clearTimeout(timer)
    return { code: code as number | null, signal: signal as NodeJS.Signals | null }
  })
  const next = (line: string) => new Promise<void>((resolve, reject) => {
    if (lines.some((seen) => seen.startsWith(line))) return resolve()
    waiters.push({ line, resolve })
    exited.then(() => reject(new Error(`the process exited before printing "${line}": ${lines.join(' | ')} ${stderr}`)), reject)
  })
  await next('listening ')
  const port = Number(lines.find((line) => line.startsWith('listening '))!.split(' ')[1])
  return { port, lines, stderr: () => stderr, next, exited, kill: (signal) => child.kill(signal) }
}

function get (port: number, path: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    }).on('error', reject)
  })
}

const hooks = [
  'onModuleDestroy Db',
  'beforeApplicationShutdown Db SIGTERM',
  'onApplicationShutdown SlowController SIGTERM',
  'onApplicationShutdown Db SIGTERM'
]

/** The shutdownSignals tests, run by each test lane on its own build of the app process. */
export function shutdownSignalTests (): void {
  const served = [
    ['SIGTERM: the request in flight completes, the hooks run with the signal, then the process ends by the signal', []],
    ['SIGTERM on a testing application with enableShutdownHooks([\'SIGTERM\']): the same, from the application\'s own listener', ['testing']]
  ] as const
  for (const [name, args] of served) {
    test(name, { timeout: limit }, async () => {
      const app = await launch([...args])
      const response = get(app.port, '/slow')
      await app.next('request started')
      app.kill('SIGTERM')
      assert.deepEqual(await response, { status: 200, body: '{"done":true}' })
      assert.deepEqual(await app.exited, { code: null, signal: 'SIGTERM' })
      assert.deepEqual(app.lines.slice(1), ['request started', 'request done', ...hooks])
      assert.equal(app.stderr(), '')
    })
  }

  test('SIGTERM with a failing shutdown hook: every hook runs, the failure is logged, the process exits with 1', { timeout: limit }, async () => {
    const app = await launch(['fail'])
    app.kill('SIGTERM')
    assert.deepEqual(await app.exited, { code: 1, signal: null })
    assert.deepEqual(app.lines.slice(1), hooks)
    assert.match(app.stderr(), /Closing the application on SIGTERM failed/)
    assert.match(app.stderr(), /Db\.onApplicationShutdown\(\) failed: db would not close/)
  })

  test('SIGTERM when the app has its own listener: the hooks run, the signal is left to that listener', { timeout: limit }, async () => {
    const app = await launch(['own-handler'])
    app.kill('SIGTERM')
    // Nothing keeps the process alive once the app is closed: it ends on its own.
    assert.deepEqual(await app.exited, { code: 0, signal: null })
    assert.deepEqual(app.lines.slice(1), ['own handler', ...hooks])
  })
}
