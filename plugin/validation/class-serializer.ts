import type { CallHandler, CustomDecorator, ExecutionContext, NestInterceptor, Type } from '../../types/index.js'
import { Injectable, Inject, Optional } from '../decorators/injectable.js'
import { Reflector, metadataDecorator } from '../decorators/reflector.js'
import { isStreamableFile } from '../common/streamable-file.js'
import { optionalPeer } from '../util/peers.js'
import { ERR_MISSING_PEER } from '../util/errors.js'

/** class-transformer's options for turning instances into plain objects, as the interceptor passes them on. */
export interface ClassSerializerInterceptorOptions {
  /** Plain values are first made instances of this class, so its @Exclude()/@Expose() apply. */
  type?: Type
  strategy?: 'excludeAll' | 'exposeAll'
  groups?: string[]
  version?: number
  excludePrefixes?: string[]
  excludeExtraneousValues?: boolean
  enableCircularCheck?: boolean
  [option: string]: unknown
}

// NestJS's key: its @SerializeOptions() and this one are read alike.
const kSerializeOptions = 'class_serializer:options'

/** Options for ClassSerializerInterceptor on a handler or a controller (the handler's win). */
export function SerializeOptions (options: ClassSerializerInterceptorOptions): CustomDecorator<string> {
  return metadataDecorator('@SerializeOptions()', kSerializeOptions, options)
}

interface Transformer {
  instanceToPlain: (value: unknown, options?: object) => unknown
  plainToInstance: (cls: Type, value: unknown, options?: object) => unknown
}

/**
 * Turns what a handler returns into a plain object with class-transformer's `instanceToPlain`,
 * so `@Exclude()`, `@Expose()` and `@Transform()` shape the answer; options from the
 * constructor, then `@SerializeOptions()`. Needs class-transformer.
 */
export class ClassSerializerInterceptor implements NestInterceptor {
  readonly #transformer: Transformer

  constructor (protected readonly reflector: Reflector, protected readonly defaultOptions: ClassSerializerInterceptorOptions = {}) {
    this.#transformer = optionalPeer('class-transformer', (cause) => new ERR_MISSING_PEER('ClassSerializerInterceptor needs the optional peer dependency class-transformer, which could not be loaded. Install it: npm install class-transformer', { cause }))
  }

  async intercept (context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const options = { ...this.defaultOptions, ...this.reflector.getAllAndOverride<ClassSerializerInterceptorOptions | undefined>(kSerializeOptions, [context.getHandler(), context.getClass()]) }
    return this.serialize(await next.handle(), options)
  }

  /** One value or each of a list; what is no object (or a StreamableFile) is left as it is. */
  serialize (response: unknown, options: ClassSerializerInterceptorOptions): unknown {
    if (typeof response !== 'object' || response === null || isStreamableFile(response) || Buffer.isBuffer(response)) return response
    return Array.isArray(response) ? response.map((item) => this.transformToPlain(item, options)) : this.transformToPlain(response, options)
  }

  transformToPlain (value: unknown, options: ClassSerializerInterceptorOptions): unknown {
    if (typeof value !== 'object' || value === null) return value
    const { type, ...rest } = options
    const instance = type !== undefined && value.constructor !== type ? this.#transformer.plainToInstance(type, value, rest) : value
    return this.#transformer.instanceToPlain(instance, rest)
  }
}

// Declared without decorator syntax: the package's sources compile under any tsconfig.
Injectable()(ClassSerializerInterceptor)
Inject(Reflector)(ClassSerializerInterceptor, undefined, 0)
Optional()(ClassSerializerInterceptor, undefined, 1)
