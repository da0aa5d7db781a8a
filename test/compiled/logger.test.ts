// NestJS's Logger as NestJS code uses it, compiled with decorator metadata: a field of a service,
// and a provider injected by type.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Injectable, Logger, FastifyAdapter } from 'fastify-decorator-plugin'
import { Test } from 'fastify-decorator-plugin/testing'

@Injectable()
class CatsService {
  private readonly logger = new Logger(CatsService.name)
  async findAll () {
    await new Promise((resolve) => setImmediate(resolve))
    this.logger.log('listing cats')
    return ['Tom']
  }
}

@Controller('cats')
class CatsController {
  constructor (private readonly catsService: CatsService, private readonly logger: Logger) {}
  @Get() findAll () {
    this.logger.warn('GET /cats')
    return this.catsService.findAll()
  }
}

@Module({ controllers: [CatsController], providers: [CatsService, Logger] })
class CatsModule {}

test('Logger lines of a request go through the application\'s pino logger with the request id', async () => {
  const lines: any[] = []
  const moduleRef = await Test.createTestingModule({ imports: [CatsModule] }).compile()
  const app = moduleRef.createNestApplication(new FastifyAdapter({ logger: { stream: { write: (line: string) => lines.push(JSON.parse(line)) } } }))
  await app.init()
  const res = await app.inject('/cats')
  assert.deepEqual(res.json(), ['Tom'])
  const logged = lines.filter((line) => line.msg === 'GET /cats' || line.msg === 'listing cats')
  assert.deepEqual(logged.map(({ level, context, msg, reqId }) => ({ level, context, msg, reqId })), [
    { level: 40, context: undefined, msg: 'GET /cats', reqId: 'req-1' },
    { level: 30, context: 'CatsService', msg: 'listing cats', reqId: 'req-1' }
  ])
  await app.close()
})

// `import` and `require` of the package give one copy; a second copy, here the ES build of the same
// sources loaded by path, is what a library with its own installation of the package would bring.
test('a Logger of another copy of the package writes through an application of this one', async () => {
  const other = await import('../../plugin/index.js')
  assert.notEqual(other.Logger as unknown, Logger)
  const lines: any[] = []
  const app = Fastify({ logger: { stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  await app.register(decoratorPlugin, { module: CatsModule })
  await app.ready()
  new other.Logger('Helper').log('from the other copy')
  await app.close()
  assert.deepEqual(lines.filter((line) => line.context === 'Helper').map((line) => line.msg), ['from the other copy'])
})
