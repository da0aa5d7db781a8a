import { fork, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { scenarios, type ScenarioName } from './scenarios.js'

// Bytes the V8 heap allocates per request in a benchmark server: the server runs with
// --trace-gc-nvp, whose line after each collection gives the bytes allocated since the one
// before; a scavenge is forced at both ends of the window, so the sum over the window counts
// exactly what its requests allocated (plus the two IPC messages asking for the scavenges).
// Targets alternate round after round. `node dist/bench/src/alloc.js --scenarios pipeline-dto`

const { values: opts } = parseArgs({
  options: {
    scenarios: { type: 'string', default: 'pipeline,pipeline-dto' },
    targets: { type: 'string', default: 'raw,plugin' },
    requests: { type: 'string', default: '50000' },
    warmup: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' }
  }
})

interface Server { child: ChildProcess, port: number, gcs: Array<{ kind: string, allocated: number, pause: number }> }

function start (target: string, name: ScenarioName): Promise<Server> {
  const child = fork(new URL('./server.js', import.meta.url), [target, name], { execArgv: ['--expose-gc', '--trace-gc-nvp'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const gcs: Server['gcs'] = []
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const allocated = /\ballocated=(\d+)/.exec(line)
    if (allocated === null) return
    gcs.push({ kind: /\bgc=(\w+)/.exec(line)?.[1] ?? '?', allocated: Number(allocated[1]), pause: Number(/\bpause=([\d.]+)/.exec(line)?.[1] ?? 0) })
  })
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port, gcs }))
    child.once('exit', (code) => reject(new Error(`${target} ${name}: exited with code ${code}`)))
  })
}

// A scavenge in the server, and its trace line read.
async function scavenge (server: Server): Promise<number> {
  const seen = server.gcs.length
  server.child.send('scavenge')
  await new Promise((resolve) => server.child.once('message', resolve))
  while (server.gcs.length === seen) await new Promise((resolve) => setTimeout(resolve, 10))
  return server.gcs.length
}

async function load (server: Server, name: ScenarioName, amount: number): Promise<void> {
  const { request, checks } = scenarios[name]
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    connections: Number(opts.connections),
    amount,
    expectBody: JSON.stringify(checks[0].json)
  })
  const bad = result.errors + result.timeouts + result.non2xx + result.mismatches
  if (bad > 0 || result.requests.total !== amount) throw new Error(`${name}: ${result.requests.total} of ${amount} requests, ${bad} failed`)
}

const requests = Number(opts.requests)
for (const name of opts.scenarios.split(',') as ScenarioName[]) {
  const targets = opts.targets.split(',')
  const servers = new Map<string, Server>()
  for (const target of targets) {
    const server = await start(target, name)
    await load(server, name, Number(opts.warmup))
    servers.set(target, server)
  }
  const results = new Map<string, string[]>(targets.map((target) => [target, []]))
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const target of targets) {
      const server = servers.get(target)!
      const from = await scavenge(server)
      await load(server, name, requests)
      const to = await scavenge(server)
      // From the line after the first forced scavenge to the second's, which counts the tail.
      const window = server.gcs.slice(from, to)
      const bytes = window.reduce((sum, gc) => sum + gc.allocated, 0)
      const pause = window.reduce((sum, gc) => sum + gc.pause, 0)
      const collections = window.filter((gc) => gc.kind !== 's').length
      results.get(target)!.push(`${(bytes / requests).toFixed(0)} B/req, ${(1e5 * (window.length - 1) / requests).toFixed(1)} scavenges and ${collections} other collections per 100k, ${(1000 * pause / requests).toFixed(2)} µs GC pause/req`)
    }
  }
  for (const [target, lines] of results) for (const line of lines) process.stdout.write(`${name} ${target}: ${line}\n`)
  for (const server of servers.values()) server.child.kill()
}
