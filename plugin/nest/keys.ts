// The metadata keys and enum values @nestjs/common's decorators write, as its published
// constants and enums name them. Plain strings and numbers: reading them loads nothing of NestJS.
import type { ParamKind } from '../decorators/params.js'
import type { RouteMethod } from '../decorators/controller.js'

export const nestKeys = {
  imports: 'imports',
  providers: 'providers',
  controllers: 'controllers',
  exports: 'exports',
  global: '__module:global__',
  injectable: '__injectable__',
  controller: '__controller__',
  scope: 'scope:options',
  paramTypes: 'design:paramtypes',
  selfParams: 'self:paramtypes',
  optionalParams: 'optional:paramtypes',
  properties: 'self:properties_metadata',
  optionalProperties: 'optional:properties_metadata',
  path: 'path',
  host: 'host',
  method: 'method',
  version: '__version__',
  routeArgs: '__routeArguments__',
  customArg: '__customRouteArgs__',
  passthrough: '__responsePassthrough__',
  httpCode: '__httpCode__',
  headers: '__headers__',
  redirect: '__redirect__',
  render: '__renderTemplate__',
  sse: '__sse__',
  sseOptions: '__sseOptions__',
  guards: '__guards__',
  pipes: '__pipes__',
  interceptors: '__interceptors__',
  filters: '__exceptionFilters__',
  catch: '__filterCatchExceptions__'
} as const

// The keys only @nestjs/common writes: TypeScript's design:* keys are on every decorated class.
const nestOnly = new Set<unknown>(Object.values(nestKeys).filter((key) => !key.startsWith('design:')))

/**
 * Whether a list of metadata keys has one of @nestjs/common's. Most classes of an application
 * have none: one look at a target's keys spares reading each of NestJS's keys on it.
 */
export function hasNestKeys (keys: unknown[]): boolean {
  for (let i = 0; i < keys.length; i++) if (nestOnly.has(keys[i])) return true
  return false
}

/** The module keys of `@Module()`: a class with one of them is a NestJS module. */
export const moduleKeys = [nestKeys.imports, nestKeys.providers, nestKeys.controllers, nestKeys.exports] as const

/** NestJS's `Scope` enum (numbers) as the plugin's scope names. */

/** NestJS's `RequestMethod` enum; the WebDAV methods, SEARCH and QUERY have no route decorator here. */
export const requestMethods: Record<number, RouteMethod | string> = {
  0: 'GET',
  1: 'POST',
  2: 'PUT',
  3: 'DELETE',
  4: 'PATCH',
  5: 'ALL',
  6: 'OPTIONS',
  7: 'HEAD',
  8: 'SEARCH',
  9: 'PROPFIND',
  10: 'PROPPATCH',
  11: 'MKCOL',
  12: 'COPY',
  13: 'MOVE',
  14: 'LOCK',
  15: 'UNLOCK',
  16: 'QUERY'
}
export const routeMethods = new Set<string>(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD'])

/**
 * NestJS's `RouteParamtypes` enum: the parameter kind each value stands for here, or, for a
 * kind with no counterpart, the decorator's name (for the error that says so).
 */
export const paramTypes: Record<number, { kind: ParamKind } | { unsupported: string, fix: string }> = {
  0: { kind: 'req' },
  1: { kind: 'res' },
  2: { unsupported: '@Next()', fix: 'Fastify handlers take no next(); return the result or use @Res()' },
  3: { kind: 'body' },
  4: { kind: 'query' },
  5: { kind: 'param' },
  6: { kind: 'headers' },
  7: { kind: 'session' },
  8: { unsupported: '@UploadedFile()', fix: 'use @UploadedFile() of fastify-decorator-plugin, which reads @fastify/multipart' },
  9: { unsupported: '@UploadedFiles()', fix: 'use @UploadedFiles() of fastify-decorator-plugin, which reads @fastify/multipart' },
  10: { kind: 'host' },
  11: { kind: 'ip' },
  12: { kind: 'rawBody' },
  13: { unsupported: '@Ack()', fix: 'it belongs to WebSocket gateway handlers (@SubscribeMessage()), not to routes' },
  14: { kind: 'cookies' },
  15: { kind: 'signedCookies' }
}

/** NestJS's VERSION_NEUTRAL is a symbol of its own; it is told by its description. */
export function isNestNeutral (value: unknown): boolean {
  return typeof value === 'symbol' && value.description === 'VERSION_NEUTRAL'
}
