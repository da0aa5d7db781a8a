// The public types of WebSocket gateways: NestJS's shapes, so its adapters and gateways type-check unchanged.
/** `@WebSocketGateway(port?, options?)`: `path` (ws), `namespace` (socket.io), and whatever else the adapter's server takes (`cors`, `transports`...). */
export interface GatewayMetadata {
  /** The URL path the server answers upgrades on (default `/`; socket.io's default is `/socket.io`). */
  path?: string
  /** A socket.io namespace (string or RegExp); the ws adapters have none. */
  namespace?: string | RegExp
  /** Largest frame the plugin's own adapter accepts, in bytes (default 1 MiB). */
  maxPayload?: number
  [option: string]: any
}

/** A message that goes out as an event: `{ event, data }` (ws) or `emit(event, data)` (socket.io). */
export interface WsResponse<T = any> {
  event: string
  data: T
}

/** A handler an adapter binds to a client: `callback(data, ...rest)` answers with a promise (of a value or an Observable); the plugin's own adapter also gets a value or an Observable as it is. */
export interface WsMessageHandler<T = string> {
  message: T
  callback: (...args: any[]) => any
  isAckHandledManually: boolean
}

/** NestJS's adapter seam: NestJS's `WsAdapter` and `IoAdapter` implement it, as does the plugin's own. */
export interface WebSocketAdapter<TServer = any, TClient = any, TOptions = any> {
  create(port: number, options?: TOptions): TServer
  bindClientConnect(server: TServer, callback: Function): any
  bindClientDisconnect?(client: TClient, callback: Function): any
  closeClient?(client: TClient): any
  bindMessageHandlers(client: TClient, handlers: WsMessageHandler[], transform: (data: any) => any): any
  close(server: TServer): any
  dispose?(): any
}

export interface OnGatewayInit<T = any> {
  afterInit(server: T): any
}

export interface OnGatewayConnection<T = any> {
  handleConnection(client: T, ...args: any[]): any
}

export interface OnGatewayDisconnect<T = any> {
  handleDisconnect(client: T, reason?: any): any
}
