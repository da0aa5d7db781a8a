// `npm start`: builds, then serves this app on PORT (default 3000) and HOST (default 127.0.0.1).
import Fastify from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { CatsModule } from './cats.module.js'

const port = Number(process.env.PORT ?? 3000)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number from 0 to 65535, given ${JSON.stringify(process.env.PORT)}.`)
  process.exit(1)
}
const host = process.env.HOST ?? '127.0.0.1'

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } })
// A plain Fastify route beside the decorated ones.
app.get('/health', async () => ({ ok: true }))
await app.register(decoratorPlugin, { module: CatsModule })

const url = await app.listen({ port, host })
console.log(`Cats example listening on ${url} (try ${url}/cats)`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}
