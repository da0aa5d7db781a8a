// A process for the shutdownSignals tests: it prints what happens, one event a line, and
// listens on a free port. Arguments: `fail` makes a shutdown hook throw; `own-handler` adds
// a SIGTERM listener of the app's own; `testing` serves it from Test.createTestingModule() with
// enableShutdownHooks() instead of the plugin option.
import Fastify from 'fastify'
import { Controller, FastifyAdapter, Get, Inject, Injectable, Module, decoratorPlugin } from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'

const say = (line: string) => process.stdout.write(`${line}\n`)
const mode = new Set(process.argv.slice(2))

@Injectable()
class Db {
  onModuleDestroy () { say('onModuleDestroy Db') }
  beforeApplicationShutdown (signal?: string) { say(`beforeApplicationShutdown Db ${signal}`) }
  async onApplicationShutdown (signal?: string) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    say(`onApplicationShutdown Db ${signal}`)
    if (mode.has('fail')) throw new Error('db would not close')
  }
}

@Controller('slow')
class SlowController {
  constructor (@Inject(Db) readonly db: Db) {}
  onApplicationShutdown (signal?: string) { say(`onApplicationShutdown SlowController ${signal}`) }

  @Get()
  async slow () {
    say('request started')
    await new Promise((resolve) => setTimeout(resolve, 300))
    say('request done')
    return { done: true }
  }
}

@Module({ controllers: [SlowController], providers: [Db] })
class AppModule {}

if (mode.has('own-handler')) process.on('SIGTERM', () => say('own handler'))
// Errors are logged to stderr, where the test reads them.
const app = Fastify({ logger: { level: 'error', stream: process.stderr } })
if (mode.has('testing')) {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
  await moduleRef.createNestApplication(new FastifyAdapter(app)).enableShutdownHooks(['SIGTERM']).listen(0, '127.0.0.1')
} else {
  await app.register(decoratorPlugin, { module: AppModule, shutdownSignals: ['SIGTERM'] })
  await app.listen({ port: 0, host: '127.0.0.1' })
}
say(`listening ${(app.server.address() as { port: number }).port}`)
