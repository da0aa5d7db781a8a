// Runs on tsc output (emitDecoratorMetadata): @nestjs/schedule, @nestjs/event-emitter and
// @nestjs/cqrs as published, which find their handlers through DiscoveryService, MetadataScanner
// and ModulesContainer of @nestjs/core: the plugin's stand in for them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ConsoleLogger, Inject, Injectable, Logger, Module, Scope } from '@nestjs/common'
import { REQUEST } from '@nestjs/core'
import { Interval, ScheduleModule, SchedulerRegistry } from '@nestjs/schedule'
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter'
import { CommandBus, QueryBus } from '@nestjs/cqrs'
import { CronJob } from 'cron'
import { build } from '../helpers/app.js'
import { CqrsApp, EventsApp, GetOrder, Jobs, Journal, OrderListeners, Orders, PlaceOrder, ScheduleApp } from '../helpers/nest-events.js'

const until = async (check: () => boolean, what: string, ms = 4000): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) assert.fail(`${what} did not happen within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

test('@nestjs/schedule: @Cron(), @Interval() and @Timeout() methods fire; the registry lists them; close() stops them', async (t) => {
  const app = await build(t, ScheduleApp)
  const journal = app.container.get(Journal)
  assert.ok(app.container.get(Jobs).journal === journal, 'the job class is built with its dependency')
  await until(() => journal.has('timeout') && journal.entries.filter((entry) => entry === 'interval').length >= 2, 'the timeout and two intervals')
  await until(() => journal.has('cron'), 'the cron job', 2500)
  const registry = app.container.get(SchedulerRegistry)
  assert.deepEqual(registry.getIntervals(), ['tick'])
  const cron = registry.getCronJob('every-second')
  assert.ok(cron.isActive)
  await app.close()
  assert.equal(cron.isActive, false, 'stopped by close()')
  const count = journal.entries.length
  await new Promise((resolve) => setTimeout(resolve, 80))
  assert.equal(journal.entries.length, count, 'nothing fires once closed')
})

test('@nestjs/schedule: SchedulerRegistry adds, gets and deletes jobs at run time', async (t) => {
  const app = await build(t, ScheduleApp)
  const registry = app.container.get(ScheduleApp).registry
  assert.equal(registry, app.container.get(SchedulerRegistry))
  let fired = 0
  registry.addInterval('added', setInterval(() => { fired++ }, 10))
  assert.ok(registry.getIntervals().includes('added'))
  await until(() => fired >= 2, 'the added interval')
  registry.deleteInterval('added')
  assert.equal(registry.doesExist('interval', 'added'), false)
  assert.throws(() => registry.getInterval('added'), /No Interval was found with the given name \(added\)/)
  const job = CronJob.from({ cronTime: '* * * * * *', onTick: () => {} })
  registry.addCronJob('added-cron', job)
  job.start()
  assert.equal(registry.getCronJob('added-cron'), job)
  registry.deleteCronJob('added-cron')
  assert.equal(job.isActive, false)
  registry.addTimeout('later', setTimeout(() => assert.fail('deleted before it fires'), 50))
  registry.deleteTimeout('later')
  assert.deepEqual(registry.getTimeouts(), ['once'], '@Timeout(\'once\', 10)\'s, kept once it fired')
})

@Injectable({ scope: Scope.REQUEST })
class RequestJobs {
  @Interval(10) tick () { assert.fail('a request-scoped provider has no instance to run it on') }
}
@Module({ imports: [ScheduleModule.forRoot()], providers: [RequestJobs] })
class RequestScheduleApp {}

test('@nestjs/schedule: a job of a request-scoped provider is not run, as in NestJS (the package warns)', async (t) => {
  const warnings: string[] = []
  Logger.overrideLogger({ log () {}, error () {}, warn (message: string) { warnings.push(message) } })
  t.after(() => Logger.overrideLogger(new ConsoleLogger()))
  const app = await build(t, RequestScheduleApp)
  assert.deepEqual(app.container.get(SchedulerRegistry).getIntervals(), [])
  assert.deepEqual(warnings, ['Cannot register interval "RequestJobs@tick" because it is defined in a non static provider.'])
  await new Promise((resolve) => setTimeout(resolve, 40))
})

test('@nestjs/event-emitter: sync, async and wildcard @OnEvent() listeners; EventEmitter2 injected; close() removes them', async (t) => {
  const app = await build(t, EventsApp)
  const journal = app.container.get(Journal)
  const emitter = app.container.get(EventEmitter2)
  const orders = app.container.get(Orders)
  assert.equal(orders.events, emitter)
  assert.equal(orders.create(7), true)
  assert.deepEqual(journal.entries, ['created 7', 'order.* 7'], 'sync listeners ran before emit() returned')
  // { async: true }: the listener runs after emitAsync() has called the others.
  await orders.pay(8)
  assert.ok(journal.has('order.* 8'))
  assert.equal(journal.has('paid 8'), false)
  await until(() => journal.has('paid 8'), 'the async listener')
  assert.ok(app.container.get(OrderListeners).journal === journal)
  assert.equal(emitter.listenerCount('order.created'), 2)
  await app.close()
  assert.equal(emitter.listeners('order.created').length, 0)
  assert.deepEqual(emitter.eventNames(), [])
})

@Injectable({ scope: Scope.REQUEST })
class AuditListener {
  static built = 0
  readonly number = ++AuditListener.built
  constructor (readonly journal: Journal, @Inject(REQUEST) readonly payload: { id: number }) {}
  @OnEvent('audit.*') async audit (payload: { id: number }) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    this.journal.add(`audit ${payload.id} by #${this.number}, REQUEST ${this.payload === payload ? 'is' : 'is not'} the payload`)
  }
}
@Module({ imports: [EventEmitterModule.forRoot({ wildcard: true })], providers: [Journal, AuditListener] })
class RequestEventsApp {}

test('@nestjs/event-emitter: a listener in a request-scoped provider gets an instance of its own per event, REQUEST being the payload', async (t) => {
  AuditListener.built = 0
  const app = await build(t, RequestEventsApp)
  const journal = app.container.get(Journal)
  const emitter = app.container.get(EventEmitter2)
  assert.equal(emitter.listenerCount('audit.*'), 1)
  assert.equal(AuditListener.built, 0, 'none built at startup')
  await emitter.emitAsync('audit.login', { id: 1 })
  await Promise.all([emitter.emitAsync('audit.login', { id: 2 }), emitter.emitAsync('audit.logout', { id: 3 })])
  assert.deepEqual(journal.entries.sort(), ['audit 1 by #1, REQUEST is the payload', 'audit 2 by #2, REQUEST is the payload', 'audit 3 by #3, REQUEST is the payload'])
  assert.equal(AuditListener.built, 3)
  await app.close()
  assert.deepEqual(emitter.eventNames(), [])
})

test('@nestjs/cqrs: commands, queries and events reach their handlers, built with their dependencies; a saga turns an event into a command', async (t) => {
  const app = await build(t, CqrsApp)
  const journal = app.container.get(Journal)
  const commands = app.container.get(CommandBus)
  assert.deepEqual(await commands.execute(new PlaceOrder(3)), { placed: 3 })
  // The event handler and the saga (ShipOrder) run after the command returns.
  await until(() => journal.has('placed 3') && journal.has('shipped 3'), 'the event handler and the saga\'s command')
  assert.equal(await app.container.get(QueryBus).execute(new GetOrder(3)), 'shipped')
  assert.equal(await app.container.get(QueryBus).execute(new GetOrder(4)), undefined)
  await assert.rejects(async () => await commands.execute(new GetOrder(5)), /No handler found for the command: "GetOrder"/)
})

test('a process running the three packages ends by itself once the app is closed: no timer, job or listener is left', async () => {
  const script = fileURLToPath(new URL('../helpers/nest-events-exit.js', import.meta.url))
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
    execFile(process.execPath, [script], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stdout, stderr }))
      else resolve({ stdout })
    })
  })
  assert.deepEqual(stdout.trim().split('\n'), ['{"fired":["cron","interval","timeout"]}', 'closed'])
})
