import type { ControllerScan } from '../routing/controller-scan.js'
import { ERR_NEST_UNSUPPORTED } from '../util/errors.js'
import importPeer from '../util/import-peer.cjs'
import { nestKeys } from './keys.js'
import { own } from './reader.js'

/**
 * NestJS's @SseSignal() is a createParamDecorator() whose factory reads an AbortController that
 * NestJS puts on the request; the plugin puts none there, so the handler would get undefined.
 * Refused, naming the fix. Its file is loaded only for an @Sse() handler with custom parameters.
 */
export async function refuseSseSignal (controllers: ControllerScan[]): Promise<void> {
  let signalFactory: unknown
  for (const { handlers } of controllers) {
    for (const handler of handlers) {
      if (handler.sse === undefined) continue
      for (const param of handler.params) {
        if (param.kind !== 'custom' || param.factory === undefined) continue
        signalFactory ??= await sseSignalFactory()
        if (param.factory !== signalFactory) continue
        throw new ERR_NEST_UNSUPPORTED(`${handler.name}: parameter ${param.index} takes @SseSignal() of @nestjs/common, which the plugin does not provide. End the producer in the Observable's teardown or the async generator's finally block: both run when the client leaves.`)
      }
    }
  }
}

// The factory @SseSignal() stores, read off a class it decorates; null where NestJS has none.
async function sseSignalFactory (): Promise<unknown> {
  try {
    const { SseSignal } = await importPeer('@nestjs/common/decorators/http/sse-signal.decorator.js')
    class Probe { probe (): void {} }
    SseSignal()(Probe.prototype, 'probe', 0)
    const args: Record<string, { factory?: unknown }> = own(nestKeys.routeArgs, Probe, 'probe')
    return Object.values(args)[0]?.factory ?? null
  } catch {
    return null
  }
}
