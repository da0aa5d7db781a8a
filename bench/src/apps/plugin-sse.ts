import { Controller, Sse, type MessageEvent } from 'fastify-decorator-plugin'
import { map, range, type Observable } from 'rxjs'
import { SSE_EVENTS, sseData } from '../scenarios.js'

// Decorated by call: the tsx test lane runs this file too.
export class EventsController {
  events (): Observable<MessageEvent> {
    return range(0, SSE_EVENTS).pipe(map((n) => ({ data: sseData(n) })))
  }
}
Sse('events')(EventsController.prototype, 'events', Object.getOwnPropertyDescriptor(EventsController.prototype, 'events')!)
Controller()(EventsController)
