import type { FastifyBaseLogger } from 'fastify'
import type { Server } from 'node:http'
import type { EnhancerRefLists, EnhancerRefs } from '../di/enhancer-ref.js'
import type { Container } from '../di/container.js'
import type { ModuleNode } from '../di/scanner.js'
import type { WebSocketAdapter } from '../../types/websockets.js'
import { bindGatewayEnhancers, gatewayRefs, scanGateways, type GatewayScan, type MessageRefs } from './gateway-scan.js'
import { checkGateways, serveGateways, type ServedGateways } from './gateways.js'

/**
 * An application's gateways through registration, loaded only when a module provides one:
 * scanned and their enhancers bound before the container is final, refs made with the routes',
 * checked once scopes are known, served once the providers are built.
 */
export class Gateways {
  readonly #scans: GatewayScan[]
  #refs: MessageRefs[][] = []
  #enhancerRefs: EnhancerRefs | undefined

  constructor (modules: ModuleNode[], container: Container) {
    this.#scans = scanGateways(modules)
    bindGatewayEnhancers(this.#scans, (module, cls) => { container.enhancer(module, cls) })
  }

  refs (refs: EnhancerRefs, globals: EnhancerRefLists): void {
    this.#enhancerRefs = refs
    this.#refs = this.#scans.map((scan) => gatewayRefs(scan, refs, globals))
  }

  check (container: Container): void {
    checkGateways(this.#scans, this.#refs, container)
  }

  serve (container: Container, adapter: WebSocketAdapter | undefined, httpServer: Server, log: FastifyBaseLogger): Promise<ServedGateways> {
    return serveGateways(this.#scans, this.#refs, container, { adapter, httpServer, log, refs: this.#enhancerRefs! })
  }
}
