import { Controller, Sse, type MessageEvent } from 'fastify-decorator-plugin'
import { map, range, type Observable } from 'rxjs'
import { SSE_EVENTS, sseData } from '../scenarios.js'

@Controller()
export class EventsController {
  @Sse('events') events (): Observable<MessageEvent> {
    return range(0, SSE_EVENTS).pipe(map((n) => ({ data: sseData(n) })))
  }
}
