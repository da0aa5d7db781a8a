// Type tests for the application lifecycle interfaces and the shutdownSignals option.
import Fastify from 'fastify'
import {
  decoratorPlugin, Injectable, Module,
  type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy, type OnModuleInit
} from '../../plugin/index.js'

@Injectable()
class Db implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  onModuleInit () {}
  async onApplicationBootstrap () {}
  onModuleDestroy () {}
  beforeApplicationShutdown (signal?: string) { return signal }
  async onApplicationShutdown (signal?: string) { void signal }
}

// @ts-expect-error: the shutdown hook is called with a signal name, not a number
class Wrong implements OnApplicationShutdown { onApplicationShutdown (signal: number) { void signal } }
void Wrong

@Module({ providers: [Db] })
class AppModule {}

const app = Fastify()
await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: ['SIGTERM', 'SIGINT'] })
await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: ['sigterm'] })
// @ts-expect-error: a list of names, not one
await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: 'SIGTERM' })
// @ts-expect-error: names, not numbers
await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: [15] })
