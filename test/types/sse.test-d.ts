// Type tests for @Sse(): its options and the events a handler emits.
import { Sse, type MessageEvent, type SseOptions } from '../../plugin/index.js'

const options: SseOptions = { maxPendingDataLength: 1024 * 1024 }
const decorator: MethodDecorator = Sse('events', options)
const root: MethodDecorator = Sse()
const events: MessageEvent[] = [
  { data: 'text' },
  { data: { any: 'object' }, id: '7', type: 'update', retry: 1000 },
  { comment: 'keep-alive' }
]
// @ts-expect-error: the limit is a number of bytes
void Sse('events', { maxPendingDataLength: '1M' })
// @ts-expect-error: retry is a number of milliseconds
const badRetry: MessageEvent = { retry: '1000' }
// @ts-expect-error: the path is a string
void Sse(5)
void decorator
void root
void events
void badRetry
