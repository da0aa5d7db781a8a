// Serves the migration example: node dist/examples/migration/main.js (PORT, HOST as for the cats example).
import { buildApp } from './app.js'

const app = await buildApp({ fastify: { logger: true } })
const url = await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' })
console.log(`Migration example listening on ${url} (send x-api-key: secret)`)
