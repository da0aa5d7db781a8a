import type { CanActivate, DecoratorPluginOptions, EnhancerEntry, ExceptionFilter, InterceptorLike, NestInterceptor, PipeTransform } from '../../types/index.js'
import { kCatch, kFilters, kGuards, kInterceptors, kPipes } from '../util/symbols.js'
import { defineMetadata, getMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { legacyDecorator } from '../util/legacy-decorator.js'
import { hasMethod } from '../util/has-method.js'
import { noEnhancerLists, noEntries } from '../util/empty.js'
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '../util/tokens.js'

type ClassOrMethodDecorator = ClassDecorator & MethodDecorator

/** The kinds of enhancers, each with what its entries implement. */
export interface EnhancerKinds { guards: CanActivate, pipes: PipeTransform, interceptors: NestInterceptor, filters: ExceptionFilter }
export type EnhancerKind = keyof EnhancerKinds

/** The guards, pipes, interceptors and filters declared at one level (global, controller or handler). */
export type EnhancerLists = { [K in EnhancerKind]: Array<EnhancerEntry<EnhancerKinds[K]>> }

interface EnhancerKindInfo {
  kind: EnhancerKind
  /** Where `@Use…()` keeps its entries. */
  key: symbol
  decorator: string
  /** The provider token of a global one built in a module. */
  token: string
  /** The plugin option listing global ones. */
  option: 'globalGuards' | 'globalPipes' | 'globalInterceptors' | 'globalFilters'
  what: string
  /** What each entry must implement. */
  method: string
}

/** The four kinds, in the order NestJS runs them: the one table every part of the plugin reads. */
export const enhancerKinds: readonly EnhancerKindInfo[] = Object.freeze([
  { kind: 'guards', key: kGuards, decorator: 'UseGuards', token: APP_GUARD, option: 'globalGuards', what: 'guard', method: 'canActivate' },
  { kind: 'pipes', key: kPipes, decorator: 'UsePipes', token: APP_PIPE, option: 'globalPipes', what: 'pipe', method: 'transform' },
  { kind: 'interceptors', key: kInterceptors, decorator: 'UseInterceptors', token: APP_INTERCEPTOR, option: 'globalInterceptors', what: 'interceptor', method: 'intercept' },
  { kind: 'filters', key: kFilters, decorator: 'UseFilters', token: APP_FILTER, option: 'globalFilters', what: 'filter', method: 'catch' }
])

/** What an enhancer of `kind` is called and must implement, for messages and checks. */
export const enhancerKind = (kind: EnhancerKind): EnhancerKindInfo => enhancerKinds.find((info) => info.kind === kind)!

// One decorator factory per kind; `method` is what each entry must have.
function attach<T> (kind: EnhancerKind) {
  const { key, decorator, method } = enhancerKind(kind)
  return (...items: Array<EnhancerEntry<T>>): ClassOrMethodDecorator => {
    items.forEach((item, i) => {
      if (!hasMethod(item, method)) {
        throw new ERR_INVALID_DECLARATION(`@${decorator}() entry ${i} must be a class or an instance with a ${method}() method, given ${describe(item)}.`)
      }
    })
    return legacyDecorator(`@${decorator}()`, (target: object, key2?: string | symbol, descriptor?: PropertyDescriptor): void => {
      const holder = descriptor ? descriptor.value : target
      const current: unknown[] = getOwnMetadata(key, holder) ?? []
      defineMetadata(key, [...current, ...items], holder)
    })
  }
}

export const UseGuards = attach<CanActivate>('guards')
export const UsePipes = attach<PipeTransform>('pipes')
/** The plugin's interceptors, or ones typed against another library's `next` (NestJS's). */
interface UseInterceptorsDecorator {
  (...interceptors: Array<EnhancerEntry<NestInterceptor>>): ClassOrMethodDecorator
  (...interceptors: Array<EnhancerEntry<NestInterceptor | InterceptorLike>>): ClassOrMethodDecorator
}
export const UseInterceptors: UseInterceptorsDecorator = attach<NestInterceptor>('interceptors')
export const UseFilters = attach<ExceptionFilter>('filters')

/** The exception types a filter handles; none means every exception. */
export function Catch (...types: Function[]): ClassDecorator {
  return legacyDecorator('@Catch()', (target: Function) => { defineMetadata(kCatch, types, target) })
}

/** The enhancers `@Use…()` declared on a class or a method; one shared, frozen set of empty lists where none. */
export function enhancerLists (holder: object): EnhancerLists {
  let lists: Record<string, unknown[]> | undefined
  for (let i = 0; i < enhancerKinds.length; i++) {
    const entries: unknown[] | undefined = getOwnMetadata(enhancerKinds[i].key, holder)
    if (entries === undefined) continue
    lists ??= { guards: noEntries, pipes: noEntries, interceptors: noEntries, filters: noEntries }
    lists[enhancerKinds[i].kind] = entries
  }
  return (lists ?? noEnhancerLists) as EnhancerLists
}

/** The global enhancers the plugin's options list. */
export function optionEnhancers (options: Pick<DecoratorPluginOptions, EnhancerKindInfo['option']>): EnhancerLists {
  return { guards: options.globalGuards ?? noEntries, pipes: options.globalPipes ?? noEntries, interceptors: options.globalInterceptors ?? noEntries, filters: options.globalFilters ?? noEntries }
}

/** The kind of a global enhancer's provider token (APP_GUARD and the others). */
export function appEnhancerKind (token: unknown): EnhancerKindInfo | undefined {
  return enhancerKinds.find((info) => info.token === token)
}

export function catchTypes (filter: object): Function[] {
  const cls = typeof filter === 'function' ? filter : filter.constructor
  return getMetadata(kCatch, cls) ?? []
}
