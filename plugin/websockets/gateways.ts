import type { FastifyBaseLogger } from 'fastify'
import type { Server } from 'node:http'
import type { ExceptionFilter, ObservableLike, Type } from '../../types/index.js'
import type { GatewayMetadata, WebSocketAdapter, WsMessageHandler } from '../../types/websockets.js'
import type { Binding, Container } from '../di/container.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import { bindingName } from '../di/binding.js'
import { catchTypes } from '../decorators/enhancers.js'
import { nestKeys } from '../nest/keys.js'
import { isObservable } from '../pipeline/results.js'
import { loadRxjs } from '../pipeline/call-handler.js'
import { ERR_SCOPED_PROVIDER } from '../util/errors.js'
import { wsServerKeys } from './decorators.js'
import { messageCallback, type MessagePlan } from './message-handler.js'
import { FastifyWsAdapter } from './ws-adapter.js'
import type { GatewayScan, MessageRefs } from './gateway-scan.js'

/** Refuses what gateways cannot take, before anything is built: a request-scoped gateway or enhancer. */
export function checkGateways (scans: GatewayScan[], refsOf: MessageRefs[][], container: Container): void {
  for (let g = 0; g < scans.length; g++) {
    const { module, cls, token, messages } = scans[g]
    const binding = container.declared(module, token as Type)
    if (binding.perRequest) {
      throw new ERR_SCOPED_PROVIDER(`${cls.name} is a WebSocket gateway and is request-scoped (declared so, or through what it injects). A gateway is built once and serves every client: make it and its dependencies singletons, and read per-message state from the client or the message.`)
    }
    for (let m = 0; m < messages.length; m++) {
      const message = refsOf[g][m]
      const refs = [...message.guards, ...message.pipes, ...message.interceptors, ...message.filters, ...message.paramPipes.flat()]
      const scoped = refs.find((ref) => ref.binding?.perRequest === true)
      if (scoped !== undefined) {
        throw new ERR_SCOPED_PROVIDER(`${cls.name}.${String(messages[m].key)} (${messages[m].event}) uses ${bindingName(scoped.binding!)}, which is request-scoped: gateway handlers have no request. Make it a singleton (or transient).`)
      }
    }
  }
}

type Rx = { Observable: new (subscribe: (subscriber: any) => unknown) => ObservableLike }

/** The servers of the application's gateways; closed with the app. */
export interface ServedGateways { close: () => Promise<void> }

interface ServeOptions { adapter: WebSocketAdapter | undefined, httpServer: Server, log: FastifyBaseLogger, refs: EnhancerRefs }

const values = <T>(refs: Array<EnhancerRef<T>>): T[] => refs.map((ref) => ref.value!)

function filterTypes (filter: ExceptionFilter): Function[] {
  const own = catchTypes(filter)
  return own.length > 0 ? own : Reflect.getMetadata(nestKeys.catch, filter.constructor) ?? []
}

// What NestJS's adapters expect of transform(): an Observable of what a handler gave (each value
// of an Observable result, else the value), from the promise the handler's callback returns.
function transformer (rx: Rx | undefined): (deferred: unknown) => ObservableLike {
  const subscribeTo = (deferred: unknown, subscriber: any): () => void => {
    let inner: { unsubscribe?: () => void } | undefined
    let stopped = false
    Promise.resolve(deferred).then((result) => {
      if (stopped) return
      if (isObservable(result)) {
        inner = result.subscribe({ next: (value: unknown) => subscriber.next(value), error: (error: unknown) => subscriber.error(error), complete: () => subscriber.complete() }) as typeof inner
        return
      }
      subscriber.next(result)
      subscriber.complete()
    }, (error) => subscriber.error(error))
    return () => { stopped = true; inner?.unsubscribe?.() }
  }
  if (rx !== undefined) return (deferred) => new rx.Observable((subscriber) => subscribeTo(deferred, subscriber))
  return (deferred) => ({ subscribe: (observer: any) => { const stop = subscribeTo(deferred, observer); return { unsubscribe: stop } } }) as ObservableLike
}

async function loadRx (): Promise<Rx | undefined> {
  try {
    return await import('rxjs' as string) as Rx
  } catch {
    return undefined
  }
}

/**
 * Serves each gateway through the adapter: its server made (one per port and path, a namespace of
 * it for socket.io), `@WebSocketServer()` properties set, `afterInit()` run, then each client's
 * connection, messages and disconnection bound as NestJS binds them.
 */
export async function serveGateways (scans: GatewayScan[], refsOf: MessageRefs[][], container: Container, options: ServeOptions): Promise<ServedGateways> {
  const { log, refs: enhancerRefs } = options
  const adapter = options.adapter ?? new FastifyWsAdapter(options.httpServer)
  const held = adapter as { httpServer?: unknown, logger?: unknown }
  // NestJS's adapters are given the application (new WsAdapter(app)): they get its server.
  if (typeof (held.httpServer as Server | undefined)?.on !== 'function') held.httpServer = options.httpServer
  if (adapter instanceof FastifyWsAdapter) adapter.logger ??= log
  // The plugin's adapter takes a handler's value as it is; NestJS's (and others written to its
  // seam) get a promise of it, as NestJS gives them.
  const own = adapter instanceof FastifyWsAdapter
  // next.handle() is an Observable for the gateways' interceptors too.
  await loadRxjs()
  const transform = transformer(await loadRx())
  const servers = new Map<string, unknown>()
  const created: unknown[] = []
  const pending = new Set<Promise<unknown>>()
  const report = (error: unknown, message: string): void => { log.error({ err: error }, message) }
  // A hook that throws or rejects is logged: it costs the client it ran for nothing more.
  const track = (run: () => unknown, what: string): void => {
    let value: unknown
    try {
      value = run()
    } catch (error) {
      report(error, what)
      return
    }
    if (typeof (value as PromiseLike<unknown>)?.then !== 'function') return
    const settled = Promise.resolve(value).catch((error) => report(error, what)).finally(() => pending.delete(settled))
    pending.add(settled)
  }
  const serverFor = (port: number, gateway: GatewayMetadata): unknown => {
    const { namespace, ...rest } = gateway
    const key = `${port}\0${rest.path ?? ''}`
    let server = servers.get(key)
    if (server === undefined) {
      servers.set(key, server = adapter.create(port, rest))
      created.push(server)
    }
    if (namespace === undefined) return server
    const name = typeof namespace === 'string' && !namespace.startsWith('/') ? `/${namespace}` : namespace
    return adapter.create(port, { ...gateway, namespace: name, server })
  }

  for (let g = 0; g < scans.length; g++) {
    const { cls, module, token, definition } = scans[g]
    const binding: Binding = container.declared(module, token as Type)
    const instance = binding.instance as Record<string | symbol, any>
    const handlers = scans[g].messages.map((message, m) => {
      const refs = refsOf[g][m]
      const plan: MessagePlan = {
        instance,
        cls,
        key: message.key,
        method: message.method,
        event: message.event,
        params: message.params,
        paramTypes: message.paramTypes,
        guards: refs.guards,
        pipes: refs.pipes,
        paramPipes: refs.paramPipes,
        interceptors: refs.interceptors,
        filters: values(refs.filters).reverse().map((filter) => ({ filter, types: filterTypes(filter) })),
        refs: enhancerRefs,
        log: report
      }
      const ackByHand = message.params?.some((param) => param.kind === 'ack') ?? false
      return { message: message.event, callback: messageCallback(plan), isAckHandledManually: ackByHand }
    })
    const server = serverFor(definition.port, definition.options)
    for (const key of wsServerKeys(cls.prototype)) instance[key] = server
    for (const key in instance) {
      if (typeof instance[key] !== 'function' && Reflect.getMetadata('websockets:is_socket', instance, key) === true) instance[key] = server
    }
    if (typeof instance.afterInit === 'function') track(() => instance.afterInit(server), `${cls.name}.afterInit() failed`)
    adapter.bindClientConnect(server, (client: unknown, ...rest: unknown[]) => {
      if (typeof instance.handleConnection === 'function') track(() => instance.handleConnection(client, ...rest), `${cls.name}.handleConnection() failed`)
      const bound: WsMessageHandler[] = handlers.map(({ message, callback, isAckHandledManually }) => ({
        message,
        callback: own ? (...args: unknown[]) => callback(client, ...args) : (...args: unknown[]) => Promise.resolve(callback(client, ...args)),
        isAckHandledManually
      }))
      adapter.bindMessageHandlers(client, bound, transform)
      adapter.bindClientDisconnect?.(client, (reason: unknown) => {
        if (typeof instance.handleDisconnect === 'function') track(() => instance.handleDisconnect(client, reason), `${cls.name}.handleDisconnect() failed`)
      })
    })
  }

  return {
    async close () {
      for (const server of created) await adapter.close(server)
      await adapter.dispose?.()
      // Disconnect hooks the closing started, before the providers' shutdown hooks run.
      while (pending.size > 0) await Promise.all(pending)
    }
  }
}
