import { fork, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual, parseArgs } from 'node:util'
import { cpus } from 'node:os'
import { Agent, get as httpGet } from 'node:http'
import { connect } from 'node:net'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { WebSocket } from 'ws'
import { SSE_EVENTS, isSse, scenarios, sseBody, sseClients, startupChecksFor, wsChecks, type AppName, type BenchRequest, type Check, type ScenarioName, type SseScenario } from './scenarios.js'

// Runs every target through every scenario, alternating targets (raw, plugin, NestJS, raw, ...)
// round after round so drift of the machine hits them all alike, and prints a markdown table.

const targets = ['raw', 'plugin', 'nest'] as const
type Target = typeof targets[number]
const label: Record<Target, string> = { raw: 'raw Fastify', plugin: 'plugin', nest: 'NestJS' }
type Chosen = ScenarioName | 'startup' | 'ws-echo'
const goals: Record<Chosen, string> = {
  hello: '>= 0.97', params: '>= 0.95', pipeline: '>= 0.90', 'pipeline-cv': '>= 0.85', 'pipeline-dto': '>= 0.95', 'query-dto': '>= 0.90', 'rxjs-interceptor': '>= 0.95', 'async-interceptor': '>= 0.95', 'request-scope': '>= 0.85', sse: '>= 0.90', 'sse-100': '>= 0.90', 'ws-echo': '>= 0.90', startup: '<= 1.3'
}

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'startup-rounds': { type: 'string', default: '5' },
    // The startup app's controller counts (four routes each), e.g. 500,2000 to see the cost per route.
    controllers: { type: 'string', default: '500' },
    scenarios: { type: 'string', default: 'hello,params,pipeline,pipeline-cv,pipeline-dto,query-dto,rxjs-interceptor,async-interceptor,request-scope,sse,sse-100,ws-echo,startup' },
    targets: { type: 'string', default: targets.join(',') },
    // Writes a CPU profile of this target's server into the given folder (node --cpu-prof).
    profile: { type: 'string' },
    'profile-dir': { type: 'string', default: fileURLToPath(new URL('../../profiles', import.meta.url)) }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const rounds = Number(opts.rounds)
const startupRounds = Number(opts['startup-rounds'])
const controllerCounts = opts.controllers.split(',').map(Number)
for (const count of controllerCounts) if (!Number.isInteger(count) || count < 2) throw new Error(`--controllers takes whole numbers of at least 2, given "${opts.controllers}".`)
const chosen = opts.scenarios.split(',') as Chosen[]
const chosenTargets = opts.targets.split(',') as Target[]
for (const name of chosen) if (!(name in goals)) throw new Error(`Unknown scenario "${name}"; use ${Object.keys(goals).join(', ')}.`)
for (const target of chosenTargets) if (!targets.includes(target)) throw new Error(`Unknown target "${target}"; use ${targets.join(', ')}.`)

interface Server { child: ChildProcess, port: number, startupMs: number, cpuMs: number, rss: number }

function start (target: Target, name: AppName | 'startup-contexts' | 'ws-echo', controllers = controllerCounts[0]): Promise<Server> {
  const execArgv = opts.profile === target ? ['--cpu-prof', `--cpu-prof-dir=${opts['profile-dir']}`] : []
  const env = { ...process.env, BENCH_CONTROLLERS: String(controllers) }
  const child = fork(new URL('./server.js', import.meta.url), [target, name], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${target} ${name}: not listening after 60 s`)) }, 60_000)
    child.once('message', (message: Omit<Server, 'child'>) => { clearTimeout(timer); resolve({ child, ...message }) })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${target} ${name}: exited with code ${code} before listening`)) })
  })
}

// Disconnecting lets the server exit on its own, so a CPU profile gets written.
async function stop (server: Server): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.disconnect()
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

function bodyOf (request: BenchRequest): string | undefined {
  return request.body === undefined ? undefined : JSON.stringify(request.body)
}

async function check (server: Server, target: Target, checks: Check[]): Promise<void> {
  for (const c of checks) {
    const response = await fetch(`http://127.0.0.1:${server.port}${c.path}`, { method: c.method, headers: c.headers, body: bodyOf(c) })
    const text = await response.text()
    const ok = response.status === c.status && (c.json === undefined || isDeepStrictEqual(JSON.parse(text), c.json)) && (c.text === undefined || text === c.text)
    if (!ok) {
      throw new Error(`${label[target]}: ${c.method} ${c.path} (${c.why}) answered ${response.status} ${text}; expected ${c.status} ${c.json === undefined ? '' : JSON.stringify(c.json)}`)
    }
  }
}

// An event stream's response as it comes off the socket: its head and its body's chunks, as
// bytes (latin1: one character a byte). `body` is undefined until the last chunk is in.
function chunked (bytes: string): { head: string, body: string | undefined } {
  const headEnd = bytes.indexOf('\r\n\r\n')
  if (headEnd < 0) return { head: '', body: undefined }
  let body = ''
  let at = headEnd + 4
  for (;;) {
    const line = bytes.indexOf('\r\n', at)
    if (line < 0) return { head: bytes.slice(0, headEnd), body: undefined }
    const size = parseInt(bytes.slice(at, line), 16)
    if (bytes.length < line + 2 + size + 2) return { head: bytes.slice(0, headEnd), body: undefined }
    if (size === 0) return { head: bytes.slice(0, headEnd), body }
    body += bytes.slice(line + 2, line + 2 + size)
    at = line + 2 + size + 2
  }
}

function onTheWire (server: Server, request: BenchRequest): Promise<{ bytes: string, head: string, body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    let bytes = ''
    socket.setEncoding('latin1')
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no whole response to ${request.method} ${request.path} after 10 s`)))
    socket.on('data', (data: string) => {
      bytes += data
      const { head, body } = chunked(bytes)
      if (body === undefined) return
      socket.destroy()
      resolve({ bytes, head, body: Buffer.from(body, 'latin1').toString('utf8') })
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error(`the connection closed before a whole response to ${request.method} ${request.path}: ${JSON.stringify(bytes)}`)))
    socket.write(`${request.method} ${request.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
  })
}

// The SSE scenarios compare what goes on the wire: every target sends the expected events, the
// same status and the same headers (names in any case, in any order; the date aside); the plugin
// sends raw Fastify's bytes exactly (the same header order, the same chunks, so the same writes
// of the same text), the date aside. NestJS writes each event as a chunk of its own.
async function checkWire (servers: Map<Target, Server>, name: SseScenario): Promise<void> {
  const { request } = scenarios[name]
  const answers = new Map<Target, { bytes: string, head: string, body: string }>()
  for (const [target, server] of servers) answers.set(target, await onTheWire(server, request))
  const fields = (head: string): string[] => head.toLowerCase().split('\r\n').filter((line) => !line.startsWith('date:')).sort()
  const undated = (bytes: string): string => bytes.replace(/\r\ndate: [^\r]*/i, '\r\ndate: -')
  const [first, expected] = [...answers][0]
  for (const [target, answer] of answers) {
    if (answer.body !== sseBody) throw new Error(`${label[target]} ${name}: the stream on the wire is ${JSON.stringify(answer.body)}; expected ${JSON.stringify(sseBody)}`)
    if (!isDeepStrictEqual(fields(answer.head), fields(expected.head))) throw new Error(`${label[target]} ${name}: answered with the head ${JSON.stringify(answer.head)}, ${label[first]} with ${JSON.stringify(expected.head)}`)
  }
  const raw = answers.get('raw')
  const plugin = answers.get('plugin')
  if (raw !== undefined && plugin !== undefined && undated(plugin.bytes) !== undated(raw.bytes)) {
    throw new Error(`plugin ${name}: sent ${JSON.stringify(plugin.bytes)}; raw Fastify sent ${JSON.stringify(raw.bytes)}`)
  }
}

interface Sample { rps: number, p99: number, cpu: number }

// CPU time (user + system) the server process has used so far, in microseconds: utime and
// stime of /proc/<pid>/stat, in clock ticks of 10 ms. Unlike req/s, CPU per request barely
// moves when other processes compete for the cores.
function cpuTime (server: Server): number {
  const stat = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

async function measure (server: Server, target: Target, name: ScenarioName, seconds: number): Promise<Sample> {
  const { request, checks } = scenarios[name]
  const cpuBefore = cpuTime(server)
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: bodyOf(request),
    connections,
    duration: seconds,
    // Every timed response is compared with the expected body, not only the first.
    expectBody: JSON.stringify(checks[0].json)
  })
  const bad = result.errors + result.timeouts + result.non2xx + result.mismatches
  if (bad > 0) throw new Error(`${label[target]} ${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx, ${result.mismatches} wrong bodies`)
  return { rps: result.requests.average, p99: result.latency.p99, cpu: (cpuTime(server) - cpuBefore) / result.requests.total }
}

// Event streams: `clients` clients each read whole streams of the scenario, one after another on
// a kept-alive connection, for `seconds`; every body is compared with the expected one. rps is
// events per second, p99 the time a whole stream takes, cpu the server's µs per event.
async function measureEvents (server: Server, target: Target, name: SseScenario, seconds: number): Promise<Sample> {
  const agent = new Agent({ keepAlive: true, maxSockets: sseClients[name] })
  const cpuBefore = cpuTime(server)
  const end = performance.now() + seconds * 1000
  const times: number[] = []
  let wrong = 0
  const stream = (): Promise<void> => new Promise((resolve, reject) => {
    const started = performance.now()
    httpGet({ host: '127.0.0.1', port: server.port, path: scenarios[name].request.path, agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => {
        if (res.statusCode !== 200 || text !== sseBody) wrong++
        times.push(performance.now() - started)
        resolve()
      })
      res.on('error', reject)
    }).on('error', reject)
  })
  const client = async (): Promise<void> => { while (performance.now() < end) await stream() }
  const started = performance.now()
  await Promise.all(Array.from({ length: sseClients[name] }, client))
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  if (wrong > 0) throw new Error(`${label[target]} ${name}: ${wrong} streams with a wrong status or body`)
  const events = times.length * SSE_EVENTS
  times.sort((a, b) => a - b)
  return { rps: events / elapsed, p99: Math.round(times[Math.floor(times.length * 0.99)] ?? 0), cpu: (cpuTime(server) - cpuBefore) / events }
}

const sampleOf = (server: Server, target: Target, name: ScenarioName, seconds: number): Promise<Sample> =>
  isSse(name) ? measureEvents(server, target, name, seconds) : measure(server, target, name, seconds)

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const spread = (values: number[]): string => `${(100 * (Math.max(...values) - Math.min(...values)) / median(values)).toFixed(1)}%`
const ratio = (value: number | undefined, base: number | undefined): string =>
  value === undefined || base === undefined ? 'n/a' : (value / base).toFixed(2)
const fmt = (value: number | undefined, digits = 0): string => value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits)
const log = (line: string): void => { process.stderr.write(`${line}\n`) }
const startupLabel = (target: StartupTarget): string => target === 'contexts' ? 'raw Fastify, a plugin per resource' : label[target]

// ws-echo: the timed frame and its answer (declared before the scenario loop, which uses them).
const { frame: echoFrame, answer: echoAnswer } = wsChecks[0]

const throughput = new Map<ScenarioName | 'ws-echo', Map<Target, Sample[]>>()
// ws-echo: opening a connection (upgrade and a first echo), per target.
const setups = new Map<Target, Array<{ ms: number, cpu: number }>>()
// 'contexts': raw Fastify with one encapsulated plugin per resource, to show what contexts cost.
type StartupTarget = Target | 'contexts'
interface StartupSample { ms: number, cpu: number, rss: number }
// Per controller count, each target's starts.
const startups = new Map<number, Map<StartupTarget, StartupSample[]>>()

/** A client over loopback: resolves with the socket once open. */
function wsOpen (port: number): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`)
  return new Promise((resolve, reject) => { socket.once('open', () => resolve(socket)); socket.once('error', reject) })
}

/** `connections` clients, each sending the next echo once the last is answered, for `seconds`; every answer is compared. */
async function wsMeasure (server: Server, target: Target, seconds: number): Promise<Sample> {
  const sockets = await Promise.all(Array.from({ length: connections }, () => wsOpen(server.port)))
  const cpuBefore = cpuTime(server)
  let count = 0
  let wrong = 0
  const end = Date.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => {
    socket.on('message', (raw) => {
      if (String(raw) !== echoAnswer) wrong++
      count++
      if (Date.now() < end) socket.send(echoFrame)
      else resolve()
    })
    socket.send(echoFrame)
  })))
  const elapsed = (performance.now() - started) / 1000
  const cpu = (cpuTime(server) - cpuBefore) / count
  await Promise.all(sockets.map((socket) => new Promise((resolve) => { socket.once('close', resolve); socket.close() })))
  if (wrong > 0) throw new Error(`${label[target]} ws-echo: ${wrong} wrong answers`)
  return { rps: count / elapsed, p99: Number.NaN, cpu }
}

/** Opening a connection: `n` in turn, each upgraded and answering one echo, then closed. */
async function wsSetup (server: Server, n: number): Promise<{ ms: number, cpu: number }> {
  const cpuBefore = cpuTime(server)
  const started = performance.now()
  for (let i = 0; i < n; i++) {
    const socket = await wsOpen(server.port)
    await new Promise((resolve) => { socket.once('message', resolve); socket.send(echoFrame) })
    await new Promise((resolve) => { socket.once('close', resolve); socket.close() })
  }
  return { ms: (performance.now() - started) / n, cpu: (cpuTime(server) - cpuBefore) / n }
}

/** Every frame of wsChecks on one connection, each answer compared exactly. */
async function wsCheck (server: Server, target: Target): Promise<void> {
  const socket = await wsOpen(server.port)
  try {
    for (const c of wsChecks) {
      const answer = await new Promise<string>((resolve) => { socket.once('message', (raw) => resolve(String(raw))); socket.send(c.frame) })
      if (answer !== c.answer) throw new Error(`${label[target]} ws-echo (${c.why}): ${c.frame} answered ${answer}; expected ${c.answer}`)
    }
  } finally {
    socket.close()
  }
}

// Every other round in reverse order (raw, plugin, then plugin, raw): no target is always measured
// first or right after the same one, so a machine that speeds up or slows down during a run
// weighs on both alike.
function inRoundOrder<T> (targets: T[], round: number): T[] {
  return round % 2 === 1 ? targets : [...targets].reverse()
}

// NestJS is left out: it has no gateway on the app's own Fastify server to compare here.
async function wsEcho (): Promise<void> {
  const servers = new Map<Target, Server>()
  const wsTargets = chosenTargets.filter((target) => target !== 'nest')
  try {
    for (const target of wsTargets) {
      const server = await start(target, 'ws-echo')
      servers.set(target, server)
      await wsCheck(server, target)
    }
    for (const target of wsTargets) await wsMeasure(servers.get(target)!, target, warmup)
    const samples = new Map<Target, Sample[]>(wsTargets.map((target) => [target, []]))
    for (const target of wsTargets) setups.set(target, [])
    for (let round = 1; round <= rounds; round++) {
      for (const target of inRoundOrder(wsTargets, round)) {
        const sample = await wsMeasure(servers.get(target)!, target, duration)
        samples.get(target)!.push(sample)
        const setup = await wsSetup(servers.get(target)!, 200)
        setups.get(target)!.push(setup)
        log(`ws-echo round ${round} ${label[target]}: ${sample.rps.toFixed(0)} msg/s, ${sample.cpu.toFixed(1)} us CPU/msg; connection setup ${setup.ms.toFixed(2)} ms, ${setup.cpu.toFixed(0)} us CPU`)
      }
    }
    throughput.set('ws-echo', samples)
  } finally {
    for (const server of servers.values()) await stop(server)
  }
}

for (const name of chosen) {
  if (name === 'startup') continue
  if (name === 'ws-echo') {
    await wsEcho()
    continue
  }
  const servers = new Map<Target, Server>()
  try {
    for (const target of chosenTargets) {
      const server = await start(target, name)
      servers.set(target, server)
      await check(server, target, scenarios[name].checks)
    }
    if (isSse(name)) await checkWire(servers, name)
    for (const target of chosenTargets) await sampleOf(servers.get(target)!, target, name, warmup)
    const samples = new Map<Target, Sample[]>(chosenTargets.map((target) => [target, []]))
    for (let round = 1; round <= rounds; round++) {
      for (const target of inRoundOrder(chosenTargets, round)) {
        const sample = await sampleOf(servers.get(target)!, target, name, duration)
        samples.get(target)!.push(sample)
        log(`${name} round ${round} ${label[target]}: ${sample.rps.toFixed(0)} ${isSse(name) ? 'events' : 'req'}/s, p99 ${sample.p99} ms, ${sample.cpu.toFixed(1)} us CPU/req`)
      }
    }
    throughput.set(name, samples)
  } finally {
    for (const server of servers.values()) await stop(server)
  }
}

if (chosen.includes('startup')) {
  const startupTargets: StartupTarget[] = chosenTargets.includes('raw') ? [...chosenTargets, 'contexts'] : chosenTargets
  for (const count of controllerCounts) startups.set(count, new Map(startupTargets.map((target) => [target, []])))
  for (let round = 1; round <= startupRounds; round++) {
    for (const count of controllerCounts) {
      for (const target of inRoundOrder(startupTargets, round)) {
        const server = target === 'contexts' ? await start('raw', 'startup-contexts', count) : await start(target, 'startup', count)
        try {
          await check(server, target === 'contexts' ? 'raw' : target, startupChecksFor(count))
        } finally {
          await stop(server)
        }
        startups.get(count)!.get(target)!.push({ ms: server.startupMs, cpu: server.cpuMs, rss: server.rss })
        log(`startup round ${round}, ${count} controllers, ${startupLabel(target)}: ${server.startupMs.toFixed(0)} ms, CPU ${server.cpuMs.toFixed(0)} ms, RSS ${(server.rss / 2 ** 20).toFixed(1)} MB`)
      }
    }
  }
}

const lines: string[] = []
if (throughput.size > 0) {
  lines.push('| scenario | raw Fastify req/s | plugin req/s | plugin / raw | target | NestJS req/s | NestJS / raw | plugin / NestJS | p99 ms raw / plugin / NestJS | server CPU µs/req raw / plugin / NestJS |')
  lines.push('|---|---:|---:|---:|---|---:|---:|---:|---:|---:|')
  for (const [name, samples] of throughput) {
    const rps = (target: Target) => samples.has(target) ? median(samples.get(target)!.map((s) => s.rps)) : undefined
    const p99 = (target: Target) => samples.has(target) ? median(samples.get(target)!.map((s) => s.p99)) : undefined
    const cpu = (target: Target) => samples.has(target) ? median(samples.get(target)!.map((s) => s.cpu)) : undefined
    lines.push(`| ${name === 'ws-echo' ? 'ws-echo (messages/s)' : name} | ${fmt(rps('raw'))} | ${fmt(rps('plugin'))} | ${ratio(rps('plugin'), rps('raw'))} | ${goals[name]} | ${fmt(rps('nest'))} | ${ratio(rps('nest'), rps('raw'))} | ${ratio(rps('plugin'), rps('nest'))} | ${fmt(p99('raw'))} / ${fmt(p99('plugin'))} / ${fmt(p99('nest'))} | ${fmt(cpu('raw'), 1)} / ${fmt(cpu('plugin'), 1)} / ${fmt(cpu('nest'), 1)} |`)
  }
  // Each round's own ratio: the two measurements of a round ran back to back, under the same load.
  for (const [name, samples] of throughput) {
    if (!samples.has('raw') || !samples.has('plugin')) continue
    const pairs = samples.get('plugin')!.map((s, i) => s.rps / samples.get('raw')![i].rps)
    lines.push('', `${name}, plugin / raw Fastify round by round: ${pairs.map((pair) => pair.toFixed(2)).join(', ')}.`)
  }
  if ([...throughput.keys()].some(isSse)) lines.push('', `sse, sse-100: events/s (streams of ${SSE_EVENTS} events read whole, by 1 and by 100 clients at once), p99 of a whole stream, server CPU µs per event.`)
  lines.push('')
}
if (setups.size > 0) {
  const of = (target: Target, key: 'ms' | 'cpu') => setups.has(target) ? median(setups.get(target)!.map((s) => s[key])) : undefined
  lines.push('| ws connection setup (upgrade, one echo, close) | raw Fastify + ws | plugin | plugin / raw |')
  lines.push('|---|---:|---:|---:|')
  lines.push(`| ms per connection | ${fmt(of('raw', 'ms'), 2)} | ${fmt(of('plugin', 'ms'), 2)} | ${ratio(of('plugin', 'ms'), of('raw', 'ms'))} |`)
  lines.push(`| server CPU µs per connection | ${fmt(of('raw', 'cpu'))} | ${fmt(of('plugin', 'cpu'))} | ${ratio(of('plugin', 'cpu'), of('raw', 'cpu'))} |`)
  lines.push('')
}
for (const [count, startup] of startups) {
  const of = (target: StartupTarget, key: keyof StartupSample, scale = 1) => startup.has(target) ? median(startup.get(target)!.map((s) => s[key])) / scale : undefined
  const row = (what: string, key: keyof StartupSample, scale = 1, digits = 0) => {
    const value = (target: StartupTarget) => of(target, key, scale)
    return `| ${what} | ${fmt(value('raw'), digits)} | ${fmt(value('plugin'), digits)} | ${ratio(value('plugin'), value('raw'))} | ${goals.startup} | ${fmt(value('nest'), digits)} | ${ratio(value('nest'), value('raw'))} | ${ratio(value('nest'), value('plugin'))} | ${fmt(value('contexts'), digits)} | ${ratio(value('plugin'), value('contexts'))} |`
  }
  lines.push(`| startup (${count} controllers x 4 routes) | raw Fastify | plugin | plugin / raw | target | NestJS | NestJS / raw | NestJS / plugin | raw Fastify, a plugin per resource | plugin / that |`)
  lines.push('|---|---:|---:|---:|---|---:|---:|---:|---:|---:|')
  lines.push(row('time to listening, ms', 'ms'))
  lines.push(row('CPU to listening, ms', 'cpu'))
  lines.push(row('RSS after ready, MB', 'rss', 2 ** 20, 1))
  lines.push('')
  // Each round's own ratio: the two starts of a round ran back to back, under the same load.
  if (startup.has('plugin') && startup.has('contexts')) {
    const pairs = startup.get('plugin')!.map((s, i) => s.cpu / startup.get('contexts')![i].cpu)
    lines.push(`CPU of the plugin / raw Fastify with a plugin per resource, round by round (${count} controllers): median ${median(pairs).toFixed(2)}, from ${Math.min(...pairs).toFixed(2)} to ${Math.max(...pairs).toFixed(2)} over ${pairs.length} rounds.`)
    lines.push('')
  }
}
// CPU per route: with cost linear in routes, the step from one count to the next costs the same per route.
if (startups.size > 1) {
  const counts = [...startups.keys()]
  const targetsShown = [...startups.get(counts[0])!.keys()]
  const cpuOf = (count: number, target: StartupTarget): number => median(startups.get(count)!.get(target)!.map((s) => s.cpu))
  lines.push(`| startup CPU per route, µs | ${targetsShown.map(startupLabel).join(' | ')} |`)
  lines.push(`|---|${targetsShown.map(() => '---:').join('|')}|`)
  for (const count of counts) lines.push(`| whole process / routes, ${count * 4} routes | ${targetsShown.map((target) => fmt(1000 * cpuOf(count, target) / (count * 4), 1)).join(' | ')} |`)
  for (let i = 1; i < counts.length; i++) {
    const [from, to] = [counts[i - 1], counts[i]]
    lines.push(`| each route added, ${from * 4} to ${to * 4} routes | ${targetsShown.map((target) => fmt(1000 * (cpuOf(to, target) - cpuOf(from, target)) / ((to - from) * 4), 1)).join(' | ')} |`)
  }
  lines.push('')
}
// Spread between rounds: (max - min) / median of each target's samples.
lines.push('| spread between rounds (max - min) / median | ' + chosenTargets.map((target) => label[target]).join(' | ') + ' |')
lines.push('|---|' + chosenTargets.map(() => '---:').join('|') + '|')
for (const [name, samples] of throughput) {
  lines.push(`| ${name} ${name === 'ws-echo' ? 'messages' : isSse(name) ? 'events' : 'req'}/s | ${chosenTargets.map((target) => samples.has(target) ? spread(samples.get(target)!.map((s) => s.rps)) : 'n/a').join(' | ')} |`)
}
if (setups.size > 0) lines.push(`| ws connection setup ms | ${chosenTargets.map((target) => setups.has(target) ? spread(setups.get(target)!.map((s) => s.ms)) : 'n/a').join(' | ')} |`)
for (const [count, startup] of startups) {
  const at = startups.size > 1 ? `, ${count} controllers` : ''
  lines.push(`| startup ms${at} | ${chosenTargets.map((target) => spread(startup.get(target)!.map((s) => s.ms))).join(' | ')} |`)
  lines.push(`| startup CPU${at} | ${chosenTargets.map((target) => spread(startup.get(target)!.map((s) => s.cpu))).join(' | ')} |`)
  lines.push(`| startup RSS${at} | ${chosenTargets.map((target) => spread(startup.get(target)!.map((s) => s.rss))).join(' | ')} |`)
}
lines.push('')
lines.push(`${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ${connections} connections, ${duration} s per measurement after ${warmup} s of warm-up, ${rounds} rounds (startup: ${startupRounds} rounds); medians.`)

const report = lines.join('\n')
writeFileSync(new URL('../../results.md', import.meta.url), report + '\n')
process.stdout.write(report + '\n')
