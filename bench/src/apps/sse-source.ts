import { map, range, type Observable } from 'rxjs'
import { SSE_EVENTS, sseData } from '../scenarios.js'

/** The events of one stream of the SSE scenarios, as every target's route gets them: one rxjs Observable that emits them in a synchronous burst. */
export const events = (): Observable<{ data: ReturnType<typeof sseData> }> => range(0, SSE_EVENTS).pipe(map((n) => ({ data: sseData(n) })))
