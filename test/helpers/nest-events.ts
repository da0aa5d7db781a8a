// Applications written for NestJS with @nestjs/schedule, @nestjs/event-emitter and @nestjs/cqrs,
// unchanged: the compiled lane registers them with the plugin (test/compiled/nest-events.test.ts),
// and nest-events-exit.ts runs them in a process of their own that must end by itself once closed.
import { Injectable, Module } from '@nestjs/common'
import { Cron, CronExpression, Interval, ScheduleModule, SchedulerRegistry, Timeout } from '@nestjs/schedule'
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter'
import { CommandBus, CommandHandler, CqrsModule, EventBus, EventsHandler, ofType, QueryHandler, Saga, type ICommand, type ICommandHandler, type IEvent, type IEventHandler, type IQueryHandler } from '@nestjs/cqrs'
import { map, type Observable } from 'rxjs'

/** What the handlers below saw, in order. */
@Injectable()
export class Journal {
  readonly entries: string[] = []
  add (entry: string) { this.entries.push(entry) }
  has (entry: string) { return this.entries.includes(entry) }
}

@Injectable()
export class Jobs {
  constructor (readonly journal: Journal) {}
  @Cron(CronExpression.EVERY_SECOND, { name: 'every-second' }) everySecond () { this.journal.add('cron') }
  @Interval('tick', 25) tick () { this.journal.add('interval') }
  @Timeout('once', 10) once () { this.journal.add('timeout') }
}

@Module({ imports: [ScheduleModule.forRoot()], providers: [Journal, Jobs], exports: [Journal] })
export class ScheduleApp {
  constructor (readonly registry: SchedulerRegistry) {}
}

@Injectable()
export class Orders {
  constructor (readonly events: EventEmitter2) {}
  create (id: number) { return this.events.emit('order.created', { id }) }
  async pay (id: number) { return await this.events.emitAsync('order.paid', { id }) }
}

@Injectable()
export class OrderListeners {
  constructor (readonly journal: Journal) {}
  @OnEvent('order.created') created (payload: { id: number }) { this.journal.add(`created ${payload.id}`) }
  @OnEvent('order.paid', { async: true })
  async paid (payload: { id: number }) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    this.journal.add(`paid ${payload.id}`)
  }

  @OnEvent('order.*') any (payload: { id: number }) { this.journal.add(`order.* ${payload.id}`) }
}

@Module({ imports: [EventEmitterModule.forRoot({ wildcard: true })], providers: [Journal, Orders, OrderListeners] })
export class EventsApp {}

export class PlaceOrder implements ICommand { constructor (readonly id: number) {} }
export class ShipOrder implements ICommand { constructor (readonly id: number) {} }
export class OrderPlaced { constructor (readonly id: number) {} }
export class GetOrder { constructor (readonly id: number) {} }

@Injectable()
export class OrderStore {
  readonly orders = new Map<number, string>()
}

@CommandHandler(PlaceOrder)
export class PlaceOrderHandler implements ICommandHandler<PlaceOrder> {
  constructor (readonly store: OrderStore, readonly events: EventBus) {}
  async execute ({ id }: PlaceOrder) {
    this.store.orders.set(id, 'placed')
    this.events.publish(new OrderPlaced(id))
    return { placed: id }
  }
}

@CommandHandler(ShipOrder)
export class ShipOrderHandler implements ICommandHandler<ShipOrder> {
  constructor (readonly store: OrderStore, readonly journal: Journal) {}
  async execute ({ id }: ShipOrder) {
    this.store.orders.set(id, 'shipped')
    this.journal.add(`shipped ${id}`)
  }
}

@QueryHandler(GetOrder)
export class GetOrderHandler implements IQueryHandler<GetOrder> {
  constructor (readonly store: OrderStore) {}
  async execute ({ id }: GetOrder) { return this.store.orders.get(id) }
}

@EventsHandler(OrderPlaced)
export class OrderPlacedHandler implements IEventHandler<OrderPlaced> {
  constructor (readonly journal: Journal) {}
  handle ({ id }: OrderPlaced) { this.journal.add(`placed ${id}`) }
}

@Injectable()
export class OrderSagas {
  // Every placed order is shipped: a command the event leads to.
  @Saga() placed = (events$: Observable<IEvent>): Observable<ICommand> => events$.pipe(ofType(OrderPlaced), map(({ id }) => new ShipOrder(id)))
}

@Module({
  imports: [CqrsModule.forRoot()],
  providers: [Journal, OrderStore, PlaceOrderHandler, ShipOrderHandler, GetOrderHandler, OrderPlacedHandler, OrderSagas]
})
export class CqrsApp {}

/** All three packages in one application. */
@Module({ imports: [ScheduleApp, EventsApp, CqrsApp] })
export class AllApp {
  constructor (readonly commands: CommandBus) {}
}
