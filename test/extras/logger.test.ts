import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  decoratorPlugin, Module, Controller, Get, Post, Body, Injectable, Inject, UseGuards, Logger,
  type CanActivate, type OnModuleInit, type NestModule, type MiddlewareConsumer, type LoggerService
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { effectiveHooks } from '../helpers/routes.js'

/** An app whose log lines land in `lines`. */
async function logged (t: { after (fn: () => unknown): void }, module: Function, level = 'trace') {
  const lines: any[] = []
  const app = Fastify({ logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(decoratorPlugin, { module: module as any })
  await app.ready()
  return { app, lines: () => lines.filter((line) => line.context !== undefined || line.fromLogger === true) }
}

@Controller('quiet')
class QuietController {
  @Get() get () { return 'quiet' }
}

@Module({ controllers: [QuietController] })
class QuietModule {}

// First in this file: no Logger has been made in this process yet.
test('an application that never makes a Logger gets no request-context hook', async (t) => {
  const app = await build(t, QuietModule)
  assert.deepEqual(effectiveHooks(app, '/quiet (GET)'), [])
  assert.equal((await app.inject('/quiet')).body, 'quiet')
})

@Injectable()
class CatsService implements OnModuleInit {
  private readonly logger = new Logger(CatsService.name)
  onModuleInit () { this.logger.log('ready') }
  async find () {
    await new Promise((resolve) => setTimeout(resolve, 1))
    this.logger.log('finding')
    return ['Tom']
  }
}

class LoggingGuard implements CanActivate {
  private readonly logger = new Logger('LoggingGuard')
  canActivate () { this.logger.debug('checked'); return true }
}

@Controller('cats')
class CatsController {
  constructor (@Inject(CatsService) private readonly cats: CatsService) {}
  @Get() @UseGuards(LoggingGuard) find () { return this.cats.find() }
  @Post() async create (@Body() body: unknown) {
    await null
    new Logger('CatsController').log('created')
    return body
  }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class CatsModule implements NestModule {
  configure (consumer: MiddlewareConsumer) {
    consumer.apply((req: unknown, res: unknown, next: () => void) => { Logger.verbose('middleware', 'Middleware'); next() }).forRoutes(CatsController)
  }
}

test('inside a request a line goes through request.log: it carries the request id; outside, through the app logger', async (t) => {
  const { app, lines } = await logged(t, CatsModule)
  assert.deepEqual(lines(), [{ ...lines()[0], level: 30, context: 'CatsService', msg: 'ready' }])
  assert.equal(lines()[0].reqId, undefined)
  await app.inject('/cats')
  const served = lines().slice(1).map(({ level, context, msg, reqId }) => ({ level, context, msg, reqId }))
  assert.deepEqual(served, [
    { level: 10, context: 'Middleware', msg: 'middleware', reqId: 'req-1' },
    { level: 20, context: 'LoggingGuard', msg: 'checked', reqId: 'req-1' },
    { level: 30, context: 'CatsService', msg: 'finding', reqId: 'req-1' }
  ])
  // Routes of such an application enter the context first: one onRequest hook.
  assert.deepEqual(effectiveHooks(app, '/cats (GET)').slice(0, 2), ['(onRequest) ["enterRequest()","fdpMiddleware()"]', '(preValidation) ["fdpGuards()"]'])
})

test('a body that arrives in pieces over a socket still leaves the handler inside its request', async (t) => {
  const { app, lines } = await logged(t, CatsModule)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  for (let i = 0; i < 2; i++) {
    await new Promise<void>((resolve, reject) => {
      const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/cats', headers: { 'content-type': 'application/json', 'content-length': 14 } }, (res) => {
        res.resume()
        res.on('end', resolve)
      })
      request.on('error', reject)
      request.write('{"name":')
      setTimeout(() => request.end('"Tom"}'), 20)
    })
  }
  const created = lines().filter((line) => line.msg === 'created')
  assert.deepEqual(created.map((line) => line.reqId), ['req-1', 'req-2'])
})

test('levels map onto pino\'s; errors, stacks, objects and the context are fields of the line', async (t) => {
  @Injectable()
  class Noisy implements OnModuleInit {
    readonly logger = new Logger('Noisy', { timestamp: true })
    onModuleInit () {
      const error = new Error('boom')
      this.logger.verbose('v')
      this.logger.debug('d')
      this.logger.log({ fromLogger: true, count: 2 })
      // An instance's context goes last, so a second argument is one more message (as in NestJS).
      this.logger.warn('w', 'second')
      this.logger.error('failed', error.stack)
      this.logger.error(error)
      this.logger.fatal('f')
      this.logger.log('a', 'b')
      this.logger.log([1, 2])
      Logger.error('static', 'StaticContext')
    }
  }
  @Module({ providers: [Noisy] })
  class NoisyModule {}
  const { lines } = await logged(t, NoisyModule)
  const got = lines()
  assert.deepEqual(got.map(({ level, context, msg }) => [level, context, msg]), [
    [10, 'Noisy', 'v'], [20, 'Noisy', 'd'], [30, 'Noisy', undefined], [40, 'Noisy', 'w'], [40, 'Noisy', 'second'], [50, 'Noisy', 'failed'],
    [50, 'Noisy', 'boom'], [60, 'Noisy', 'f'], [30, 'Noisy', 'a'], [30, 'Noisy', 'b'], [30, 'Noisy', '[1,2]'], [50, 'StaticContext', 'static']
  ])
  assert.equal(got[2].count, 2)
  assert.match(got[5].stack, /^Error: boom\n\s+at /)
  assert.equal(got[6].err.message, 'boom')
  assert.equal(Logger.getTimestamp().length > 0, true)
})

test('overrideLogger: a service gets NestJS\'s arguments; levels filter; false drops; true restores', async (t) => {
  const calls: unknown[][] = []
  const service: LoggerService = {
    log: (...args) => calls.push(['log', ...args]),
    error: (...args) => calls.push(['error', ...args]),
    warn: (...args) => calls.push(['warn', ...args]),
    setLogLevels: (levels) => calls.push(['levels', levels])
  }
  t.after(() => Logger.overrideLogger(true))
  const logger = new Logger('Ctx')
  Logger.overrideLogger(service)
  assert.equal(logger.localInstance, service)
  logger.log('one')
  logger.error('two', 'stack')
  logger.debug('no debug() on the service: dropped')
  Logger.overrideLogger(['warn'])
  logger.log('filtered out')
  logger.warn('kept')
  assert.equal(Logger.isLevelEnabled('error'), true)
  assert.equal(Logger.isLevelEnabled('log'), false)
  Logger.overrideLogger(false)
  logger.error('dropped')
  assert.deepEqual(calls, [['log', 'one', 'Ctx'], ['error', 'two', 'stack', 'Ctx'], ['levels', ['warn']], ['warn', 'kept', 'Ctx']])
  Logger.overrideLogger(true)
  assert.equal(Logger.isLevelEnabled('verbose'), true)
})

test('attachBuffer holds lines until flush(); with no application running, lines go to the console', async (t) => {
  const written: string[] = []
  const original = process.stdout.write
  t.after(() => { process.stdout.write = original })
  process.stdout.write = ((chunk: string) => { written.push(String(chunk)); return true }) as typeof process.stdout.write
  Logger.attachBuffer()
  new Logger('Boot').log('held')
  assert.deepEqual(written, [])
  Logger.detachBuffer()
  Logger.log('direct', 'Boot')
  Logger.flush()
  process.stdout.write = original
  assert.deepEqual(written, ['LOG [Boot] direct\n', 'LOG [Boot] held\n'])
})

test('lines go to the latest application started, and back to the one before once it closes', async (t) => {
  const first = await logged(t, QuietModule)
  const second = await logged(t, QuietModule)
  Logger.log('to the second', 'Apps')
  await second.app.close()
  Logger.log('to the first', 'Apps')
  assert.deepEqual(second.lines().map((line) => line.msg), ['to the second'])
  assert.deepEqual(first.lines().map((line) => line.msg), ['to the first'])
})

test('Logger can be a provider, as in NestJS', async (t) => {
  @Injectable()
  class UsesLogger {
    constructor (@Inject(Logger) readonly logger: Logger) {}
  }
  @Module({ providers: [Logger, UsesLogger] })
  class LoggerModule {}
  const app: FastifyInstance = await build(t, LoggerModule)
  assert.ok(app.container.get(UsesLogger).logger instanceof Logger)
})
