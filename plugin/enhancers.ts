import type { CanActivate, EnhancerEntry, ExceptionFilter, NestInterceptor, PipeTransform } from '../types/index.js'
import { kCatch, kFilters, kGuards, kInterceptors, kPipes } from './symbols.js'
import { defineMetadata, getMetadata, getOwnMetadata } from './metadata.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { describe } from './describe.js'
import { legacyDecorator } from './legacy-decorator.js'
import { hasMethod } from './has-method.js'
import { noEntries } from './empty.js'

type ClassOrMethodDecorator = ClassDecorator & MethodDecorator

// One decorator factory per kind; `method` is what each entry must have.
function attach<T> (key: symbol, decorator: string, method: string) {
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

export const UseGuards = attach<CanActivate>(kGuards, 'UseGuards', 'canActivate')
export const UsePipes = attach<PipeTransform>(kPipes, 'UsePipes', 'transform')
export const UseInterceptors = attach<NestInterceptor>(kInterceptors, 'UseInterceptors', 'intercept')
export const UseFilters = attach<ExceptionFilter>(kFilters, 'UseFilters', 'catch')

/** The exception types a filter handles; none means every exception. */
export function Catch (...types: Function[]): ClassDecorator {
  return legacyDecorator('@Catch()', (target: Function) => { defineMetadata(kCatch, types, target) })
}

export function enhancersOf<T> (key: symbol, holder: object): Array<EnhancerEntry<T>> {
  return getOwnMetadata(key, holder) ?? noEntries
}

export function catchTypes (filter: object): Function[] {
  const cls = typeof filter === 'function' ? filter : filter.constructor
  return getMetadata(kCatch, cls) ?? []
}
