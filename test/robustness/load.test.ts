import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import { Controller, Get, Inject, Injectable, Module, REQUEST, Scope } from '../../plugin/index.js'
import type { Request } from '../../plugin/index.js'
import { buildApp, connections, getWithValue, listen } from './helpers.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const TOTAL = 20_000
const CONNECTIONS = 100

// Every request-scoped instance ever built, weakly: none may outlive its request.
const built: Array<WeakRef<object>> = []

@Injectable({ scope: Scope.REQUEST })
class RequestValue {
  readonly value: string
  // Ballast makes a retained instance visible in the heap numbers too.
  readonly ballast = new Array(64).fill(0)
  constructor (@Inject(REQUEST) request: Request) {
    this.value = request.headers['x-value'] as string
    built.push(new WeakRef(this))
  }
}

@Controller('echo')
class EchoController {
  constructor (@Inject(RequestValue) private readonly current: RequestValue) {}

  @Get()
  async echo () {
    // Yield so that many requests are in flight between building and reading the value.
    await new Promise((resolve) => setImmediate(resolve))
    return { value: this.current.value }
  }
}

@Module({ controllers: [EchoController], providers: [RequestValue] })
class LoadModule {}

const get = (agent: http.Agent, port: number, value: string) => getWithValue(agent, port, '/echo', value)

async function settledHeap (): Promise<number> {
  for (let i = 0; i < 3; i++) {
    // WeakRefs are only cleared after the current job: let it end between collections.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
  return process.memoryUsage().heapUsed
}

test(`${TOTAL} requests over ${CONNECTIONS} connections: each gets its own request-scoped value, and none is retained`, async (t) => {
  const app = await buildApp(t, LoadModule)
  const port = await listen(app)
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })

  // Warm up code paths and sockets before the baseline.
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => get(agent, port, `warm-${i}`)))
  const before = await settledHeap()
  built.length = 0

  let next = 0
  const mismatches: string[] = []
  const worker = async () => {
    while (next < TOTAL) {
      const value = `v-${next++}-${Math.random().toString(36).slice(2)}`
      const { status, body } = await get(agent, port, value)
      if (status !== 200 || body !== JSON.stringify({ value })) mismatches.push(`${value}: ${status} ${body}`)
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  assert.deepEqual(mismatches.slice(0, 5), [])
  assert.equal(built.length, TOTAL, 'one request-scoped instance per request')

  agent.destroy()
  // The server lets go of a request when its socket closes: wait for the closes to arrive.
  for (let i = 0; i < 10_000 && await connections(app.server) > 0; i++) await new Promise((resolve) => setImmediate(resolve))
  const after = await settledHeap()
  const alive = built.filter((ref) => ref.deref() !== undefined).length
  assert.equal(alive, 0, `${alive} request-scoped instances outlived their request`)
  // Generous bound: retaining the 20,000 instances with their requests would take far more.
  const grown = after - before
  assert.ok(grown < 16 * 1024 * 1024, `heap grew by ${(grown / 1024 / 1024).toFixed(1)} MB`)
  t.diagnostic(`heap before ${(before / 1024 / 1024).toFixed(1)} MB, after ${(after / 1024 / 1024).toFixed(1)} MB`)
})
