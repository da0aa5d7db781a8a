import type { CanActivate, ExceptionFilter, NestInterceptor, PipeTransform, Type } from '../../types/index.js'
import type { ModuleNode } from '../di/scanner.js'
import type { EnhancerRef, EnhancerRefLists, EnhancerRefs } from '../di/enhancer-ref.js'
import { enhancerKinds, enhancerLists, type EnhancerLists } from '../decorators/enhancers.js'
import { nestKeys } from '../nest/keys.js'
import { gatewayOf, messageOf, wsParamsOf, type GatewayDefinition, type WsParamDefinition } from './decorators.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { paramDefinitions } from '../decorators/params.js'

/** A handler as declared: its event, parameters and own enhancers. */
export interface MessageScan {
  key: string | symbol
  method: (...args: any[]) => any
  event: string
  params: WsParamDefinition[] | undefined
  paramTypes: unknown[] | undefined
  enhancers: EnhancerLists
}

export interface GatewayScan {
  module: ModuleNode
  cls: Type
  token: unknown
  definition: GatewayDefinition
  enhancers: EnhancerLists
  messages: MessageScan[]
}

/** A handler's enhancers as refs, in the order they run (global, gateway, handler), its parameters' pipes too. */
export interface MessageRefs {
  guards: Array<EnhancerRef<CanActivate>>
  pipes: Array<EnhancerRef<PipeTransform>>
  interceptors: Array<EnhancerRef<NestInterceptor>>
  filters: Array<EnhancerRef<ExceptionFilter>>
  paramPipes: Array<Array<EnhancerRef<PipeTransform>>>
}

/** The gateway classes among the modules' providers, with their module and token. */
export function findGateways (modules: ModuleNode[]): Array<{ module: ModuleNode, cls: Type, token: unknown, definition: GatewayDefinition }> {
  const found = []
  for (const module of modules) {
    for (const [token, definition] of module.providers) {
      const cls = definition.useClass
      const gateway = cls === undefined ? undefined : gatewayOf(cls)
      if (gateway !== undefined) found.push({ module, cls: cls!, token, definition: gateway })
    }
  }
  return found
}

// NestJS's enhancer keys (@nestjs/common's @UseGuards() and the others), read beside the plugin's.
const nestEnhancerKeys = { guards: nestKeys.guards, pipes: nestKeys.pipes, interceptors: nestKeys.interceptors, filters: nestKeys.filters } as const

function lists (holder: object): EnhancerLists {
  const own = enhancerLists(holder)
  const merged = {} as Record<string, unknown[]>
  for (const { kind } of enhancerKinds) {
    const nest: unknown[] | undefined = Reflect.getMetadata(nestEnhancerKeys[kind], holder)
    merged[kind] = nest === undefined || nest.length === 0 ? own[kind] : [...own[kind], ...nest]
  }
  return merged as unknown as EnhancerLists
}

// NestJS's WsParamtype values, and its custom parameter key.
const nestWsParams: Record<string, WsParamDefinition['kind']> = { 0: 'socket', 3: 'body', 13: 'ack' }

function nestParams (cls: Type, key: string | symbol, where: string): WsParamDefinition[] | undefined {
  const args: Record<string, { index: number, data?: unknown, pipes?: unknown[], factory?: WsParamDefinition['factory'] }> | undefined = Reflect.getMetadata(nestKeys.routeArgs, cls, key)
  if (args === undefined) return undefined
  return Object.entries(args).map(([type, arg]) => {
    const kind = type.includes(nestKeys.customArg) ? 'custom' : nestWsParams[type.split(':')[0]]
    if (kind === undefined) throw new ERR_INVALID_DECLARATION(`${where} has a parameter decorator gateways do not take (NestJS's parameter type ${type.split(':')[0]}): use @MessageBody(), @ConnectedSocket() or @Ack().`)
    return { index: arg.index, kind, data: arg.data, pipes: (arg.pipes ?? []) as WsParamDefinition['pipes'], factory: arg.factory }
  })
}

// The plugin's ws parameters, its custom ones (createParamDecorator()), or NestJS's.
function paramsOf (cls: Type, key: string | symbol, where: string): WsParamDefinition[] | undefined {
  const custom: WsParamDefinition[] = []
  for (const param of paramDefinitions(cls.prototype, key)) {
    if (param.kind !== 'custom') throw new ERR_INVALID_DECLARATION(`${where} has an HTTP parameter decorator (${param.kind}) at index ${param.index}: gateway handlers take @MessageBody(), @ConnectedSocket(), @Ack() and custom decorators.`)
    custom.push({ index: param.index, kind: 'custom', data: param.data, pipes: param.pipes, factory: param.factory })
  }
  const own = wsParamsOf(cls.prototype, key)
  if (custom.length === 0) return own ?? nestParams(cls, key, where)
  return [...(own ?? nestParams(cls, key, where) ?? []), ...custom]
}

function methodsOf (cls: Type): Array<[string | symbol, (...args: any[]) => any]> {
  const found = new Map<string | symbol, (...args: any[]) => any>()
  for (let proto = cls.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || found.has(key)) continue
      const value = Object.getOwnPropertyDescriptor(proto, key)?.value
      if (typeof value === 'function') found.set(key, value)
    }
  }
  return [...found]
}

/** Each gateway provider with its handlers, read from the plugin's decorators or NestJS's. */
export function scanGateways (modules: ModuleNode[]): GatewayScan[] {
  return findGateways(modules).map(({ module, cls, token, definition }) => {
    const messages: MessageScan[] = []
    const events = new Map<string, string>()
    for (const [key, method] of methodsOf(cls)) {
      const own = messageOf(method)
      const event = own ?? (Reflect.getMetadata('websockets:message_mapping', method) === true ? Reflect.getMetadata('message', method) : undefined)
      if (event === undefined) continue
      const where = `${cls.name}.${String(key)}`
      const other = events.get(event)
      if (other !== undefined) throw new ERR_INVALID_DECLARATION(`${where} and ${other} both subscribe to "${event}": one handler per event and gateway.`)
      events.set(event, where)
      const params = paramsOf(cls, key, where)
      messages.push({ key, method, event, params, paramTypes: Reflect.getMetadata('design:paramtypes', cls.prototype, key), enhancers: lists(method) })
    }
    return { module, cls, token, definition, enhancers: lists(cls), messages }
  })
}

/** Binds every enhancer class the gateways use in their module, before the container is final. */
export function bindGatewayEnhancers (scans: GatewayScan[], bind: (module: ModuleNode, cls: Type) => void): void {
  const bindAll = (module: ModuleNode, entries: unknown[]): void => { for (const entry of entries) if (typeof entry === 'function') bind(module, entry as Type) }
  for (const { module, enhancers, messages } of scans) {
    for (const { kind } of enhancerKinds) bindAll(module, enhancers[kind])
    for (const message of messages) {
      for (const { kind } of enhancerKinds) bindAll(module, message.enhancers[kind])
      for (const param of message.params ?? []) bindAll(module, param.pipes)
    }
  }
}

/** Each handler's enhancer refs; global filters are the HTTP routes' alone, as in NestJS. */
export function gatewayRefs (scan: GatewayScan, refs: EnhancerRefs, globals: EnhancerRefLists): MessageRefs[] {
  const classLevel = refs.lists(scan.enhancers, scan.module)
  return scan.messages.map((message) => {
    const own = refs.lists(message.enhancers, scan.module)
    return {
      guards: [...globals.guards, ...classLevel.guards, ...own.guards],
      pipes: [...globals.pipes, ...classLevel.pipes, ...own.pipes],
      interceptors: [...globals.interceptors, ...classLevel.interceptors, ...own.interceptors],
      filters: [...classLevel.filters, ...own.filters],
      paramPipes: (message.params ?? []).map((param) => refs.of<PipeTransform>(param.pipes, scan.module))
    }
  })
}
