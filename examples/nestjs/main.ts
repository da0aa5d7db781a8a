// Serves the NestJS example: node dist/examples/nestjs/main.js (PORT, HOST as for the cats example).
import { buildApp } from './app.js'

const app = await buildApp({ logger: true })
const url = await app.listen({ port: Number(process.env.PORT ?? 3002), host: process.env.HOST ?? '127.0.0.1' })
console.log(`NestJS example listening on ${url} (POST /api/notes with x-api-key: secret)`)
