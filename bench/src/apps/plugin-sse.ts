import { Controller, Sse, type MessageEvent } from 'fastify-decorator-plugin'
import type { Observable } from 'rxjs'
import { events } from './sse-source.js'

// Decorated by call: the tsx test lane runs this file too.
export class EventsController {
  events (): Observable<MessageEvent> {
    return events()
  }
}
Sse('events')(EventsController.prototype, 'events', Object.getOwnPropertyDescriptor(EventsController.prototype, 'events')!)
Controller()(EventsController)
