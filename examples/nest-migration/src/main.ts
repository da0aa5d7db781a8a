// The one file that changed beyond import specifiers: NestFactory's bootstrap became a Fastify
// app registering the root module, and the application's settings became plugin options.
import Fastify from 'fastify'
import { ValidationPipe, decoratorPlugin } from 'fastify-decorator-plugin'
import { AppModule } from './app.module.js'

const app = Fastify({ logger: true })
await app.register(decoratorPlugin, {
  module: AppModule,
  globalPipes: [new ValidationPipe({ whitelist: true })],
  shutdownSignals: ['SIGTERM', 'SIGINT']
})
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
