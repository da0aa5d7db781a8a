// The one file that changed beyond import specifiers: NestFactory's bootstrap became a Fastify
// app registering the root module.
import Fastify from 'fastify'
import { decoratorPlugin } from 'fastify-decorator-plugin'
import { AppModule } from './app.module'

async function bootstrap (): Promise<void> {
  const app = Fastify({ logger: true })
  await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: ['SIGTERM', 'SIGINT'] })
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
}
void bootstrap()
