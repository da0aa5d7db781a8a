// @nestjs/schedule, @nestjs/event-emitter and @nestjs/cqrs as published, run under tsx: no
// decorator metadata is emitted here, so the application's classes name what they inject with
// @Inject(token); the packages' own classes carry the metadata their build emitted.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Inject, Injectable, Module, Scope } from '@nestjs/common'
import { REQUEST } from '@nestjs/core'
import { Interval, ScheduleModule, SchedulerRegistry, Timeout } from '@nestjs/schedule'
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter'
import { CommandBus, CommandHandler, CqrsModule, EventBus, EventsHandler, ofType, QueryBus, QueryHandler, Saga, type ICommand, type IEvent } from '@nestjs/cqrs'
import { map, type Observable } from 'rxjs'
import { build } from '../helpers/app.js'

const until = async (check: () => boolean, what: string, ms = 4000): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) assert.fail(`${what} did not happen within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

@Injectable()
class Journal {
  readonly entries: string[] = []
  add (entry: string) { this.entries.push(entry) }
}

@Injectable()
class Jobs {
  constructor (@Inject(Journal) readonly journal: Journal) {}
  @Interval('tick', 15) tick () { this.journal.add('interval') }
  @Timeout('once', 5) once () { this.journal.add('timeout') }
}

@Module({ imports: [ScheduleModule.forRoot()], providers: [Journal, Jobs] })
class ScheduleApp {}

test('@nestjs/schedule under tsx: interval and timeout jobs fire with their dependency; close() stops them', async (t) => {
  const app = await build(t, ScheduleApp)
  const journal = app.container.get(Journal)
  await until(() => journal.entries.includes('timeout') && journal.entries.filter((entry) => entry === 'interval').length >= 2, 'the timeout and two intervals')
  assert.deepEqual(app.container.get(SchedulerRegistry).getIntervals(), ['tick'])
  await app.close()
  const count = journal.entries.length
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(journal.entries.length, count, 'nothing fires once closed')
})

@Injectable()
class Listeners {
  constructor (@Inject(Journal) readonly journal: Journal) {}
  @OnEvent('order.created') created (payload: { id: number }) { this.journal.add(`created ${payload.id}`) }
  @OnEvent('order.*') any (payload: { id: number }) { this.journal.add(`order.* ${payload.id}`) }
}

@Injectable({ scope: Scope.REQUEST })
class AuditListener {
  static built = 0
  readonly number = ++AuditListener.built
  constructor (@Inject(Journal) readonly journal: Journal, @Inject(REQUEST) readonly payload: unknown) {}
  @OnEvent('audit') audit (payload: { id: number }) {
    this.journal.add(`audit ${payload.id} by #${this.number}${this.payload === payload ? ', REQUEST the payload' : ''}`)
  }
}

@Module({ imports: [EventEmitterModule.forRoot({ wildcard: true })], providers: [Journal, Listeners, AuditListener] })
class EventsApp {}

test('@nestjs/event-emitter under tsx: listeners of singletons, and of a request-scoped provider built per event', async (t) => {
  AuditListener.built = 0
  const app = await build(t, EventsApp)
  const journal = app.container.get(Journal)
  const emitter = app.container.get(EventEmitter2)
  emitter.emit('order.created', { id: 1 })
  assert.deepEqual(journal.entries, ['created 1', 'order.* 1'])
  assert.equal(AuditListener.built, 0)
  await emitter.emitAsync('audit', { id: 2 })
  await emitter.emitAsync('audit', { id: 3 })
  assert.deepEqual(journal.entries.slice(2), ['audit 2 by #1, REQUEST the payload', 'audit 3 by #2, REQUEST the payload'])
  await app.close()
  assert.deepEqual(emitter.eventNames(), [])
})

class PlaceOrder implements ICommand { constructor (readonly id: number) {} }
class ShipOrder implements ICommand { constructor (readonly id: number) {} }
class OrderPlaced implements IEvent { constructor (readonly id: number) {} }
class GetOrder { constructor (readonly id: number) {} }

@Injectable()
class OrderStore { readonly orders = new Map<number, string>() }

@CommandHandler(PlaceOrder)
class PlaceOrderHandler {
  constructor (@Inject(OrderStore) readonly store: OrderStore, @Inject(EventBus) readonly events: EventBus) {}
  async execute ({ id }: PlaceOrder) {
    this.store.orders.set(id, 'placed')
    this.events.publish(new OrderPlaced(id))
    return { placed: id }
  }
}

@CommandHandler(ShipOrder)
class ShipOrderHandler {
  constructor (@Inject(OrderStore) readonly store: OrderStore) {}
  async execute ({ id }: ShipOrder) { this.store.orders.set(id, 'shipped') }
}

@QueryHandler(GetOrder)
class GetOrderHandler {
  constructor (@Inject(OrderStore) readonly store: OrderStore) {}
  async execute ({ id }: GetOrder) { return this.store.orders.get(id) }
}

@EventsHandler(OrderPlaced)
class OrderPlacedHandler {
  constructor (@Inject(Journal) readonly journal: Journal) {}
  handle ({ id }: OrderPlaced) { this.journal.add(`placed ${id}`) }
}

@Injectable()
class OrderSagas {
  @Saga() placed = (events$: Observable<IEvent>): Observable<ICommand> => events$.pipe(ofType(OrderPlaced), map(({ id }) => new ShipOrder(id)))
}

@Module({ imports: [CqrsModule.forRoot()], providers: [Journal, OrderStore, PlaceOrderHandler, ShipOrderHandler, GetOrderHandler, OrderPlacedHandler, OrderSagas] })
class CqrsApp {}

test('@nestjs/cqrs under tsx: a command, its event, a saga\'s command and a query reach their handlers', async (t) => {
  const app = await build(t, CqrsApp)
  const journal = app.container.get(Journal)
  assert.deepEqual(await app.container.get(CommandBus).execute(new PlaceOrder(4)), { placed: 4 })
  const queries = app.container.get(QueryBus)
  await until(() => journal.entries.includes('placed 4'), 'the event handler')
  let state: unknown
  await until(() => { void queries.execute(new GetOrder(4)).then((value) => { state = value }); return state === 'shipped' }, 'the saga\'s command')
  assert.equal(await queries.execute(new GetOrder(5)), undefined)
})
