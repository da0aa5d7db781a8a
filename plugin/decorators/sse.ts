import type { SseOptions } from '../../types/index.js'
import { kSse } from '../util/symbols.js'
import { defineMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { refuseTc39 } from '../util/legacy-decorator.js'
import { Get } from './controller.js'

/** What a handler's `@Sse()` declares, beside its GET route. */
export interface SseDefinition {
  /** Bytes of events that may wait for a client that does not read them; 0 or Infinity: no limit. */
  maxPendingDataLength: number
}

/** As NestJS: 4M of events wait for a client that is not reading before its connection is dropped. */
export const defaultMaxPending = 4 * 1024 * 1024

/** Checks a pending limit where it is declared; undefined or NaN (an unset environment variable) gives the default. */
export function sseDefinition (maxPendingDataLength: unknown, where: string): SseDefinition {
  if (maxPendingDataLength === undefined || maxPendingDataLength === null || Number.isNaN(maxPendingDataLength)) return { maxPendingDataLength: defaultMaxPending }
  if (typeof maxPendingDataLength !== 'number' || maxPendingDataLength < 0) {
    throw new ERR_INVALID_DECLARATION(`${where} option "maxPendingDataLength" takes a number of characters (0 or Infinity for no limit), given ${describe(maxPendingDataLength)}.`)
  }
  return { maxPendingDataLength }
}

/**
 * Declares a GET route that streams Server-Sent Events: the handler returns an Observable or an
 * async iterable of `MessageEvent`s (or of plain values, sent as their data).
 */
export function Sse (path = '', options: SseOptions = {}): MethodDecorator {
  if (typeof path !== 'string') throw new ERR_INVALID_DECLARATION(`@Sse() takes a path string, given ${describe(path)}.`)
  if (options === null || typeof options !== 'object') throw new ERR_INVALID_DECLARATION(`@Sse() takes { maxPendingDataLength } for its options, given ${describe(options)}.`)
  const definition = sseDefinition(options.maxPendingDataLength, '@Sse()')
  const get = Get(path)
  return (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    refuseTc39('@Sse()', target, key)
    get(target, key, descriptor)
    defineMetadata(kSse, definition, descriptor.value as object)
  }
}

export function sseOf (method: object): SseDefinition | undefined {
  return getOwnMetadata(kSse, method)
}
