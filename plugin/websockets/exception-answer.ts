import type { WsArgumentsHost } from '../../types/index.js'
import { isWsException } from './ws-exception.js'

const OPEN = 1

/** Sends `exception` to the client: a `ws` socket gets `{ event, data }` as JSON, a socket.io one an event. */
export function emitException (client: any, payload: unknown): void {
  if (typeof client?.readyState === 'number' && typeof client.send === 'function') {
    if (client.readyState === OPEN) client.send(JSON.stringify({ event: 'exception', data: payload }))
  } else if (typeof client?.emit === 'function') {
    client.emit('exception', payload)
  }
}

/**
 * The built-in answer to an exception no filter took, as NestJS gives it: a WsException's error
 * (an object as it is, a string as `{ status: 'error', message }`), anything else
 * `Internal server error` and a log line; with the event and data that caused it as `cause`.
 */
export function answerException (exception: unknown, host: WsArgumentsHost, log: (error: unknown, message: string) => void): void {
  const client = host.getClient()
  const cause = { pattern: host.getPattern(), data: host.getData() }
  if (isWsException(exception)) {
    const error = exception.getError()
    emitException(client, typeof error === 'object' && error !== null ? error : { status: 'error', message: error, cause })
    return
  }
  log(exception, `Unhandled exception in the handler of "${cause.pattern}"`)
  emitException(client, { status: 'error', message: 'Internal server error', cause })
}
