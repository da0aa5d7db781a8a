import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { AppName } from './scenarios.js'

// One benchmark server: `node server.js <raw|plugin|nest> <scenario>`, on 127.0.0.1, a free port.
// Reports { port, startupMs, cpuMs, rss } to the runner once listening; exits when the runner goes.

const [target, name] = process.argv.slice(2) as [string, AppName | 'ws-echo']

async function start (): Promise<number> {
  if (name === 'ws-echo') {
    const { buildWsApp } = target === 'raw' ? await import('./apps/raw-ws.js') : await import('./apps/plugin-ws.js')
    const app = await buildWsApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    return (app.server.address() as AddressInfo).port
  }
  if (target === 'nest') return await (await import('./apps/nest.js')).listen(name)
  const { buildApp } = target === 'raw' ? await import('./apps/raw.js') : await import('./apps/plugin.js')
  const app = await buildApp(name as AppName)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as AddressInfo).port
}

const port = await start()
// performance.now() counts from the start of this process, and so does its CPU time (user +
// system, all threads): on a shared machine the CPU time moves much less than the wall time.
const cpu = process.cpuUsage()
process.send!({ port, startupMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss })
process.on('disconnect', () => process.exit(0))
// The allocation count (alloc.js, with --expose-gc) asks for a scavenge at each end of its window.
process.on('message', (message) => {
  if (message !== 'scavenge') return
  (globalThis as { gc?: (options: { type: string }) => void }).gc?.({ type: 'minor' })
  process.send!('scavenged')
})
