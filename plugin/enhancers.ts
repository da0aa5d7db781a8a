import type { CanActivate, ExceptionFilter, NestInterceptor, PipeTransform, Type } from '../types/index.js'
import { kCatch, kFilters, kGuards, kInterceptors, kPipes } from './symbols.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { describe } from './describe.js'
import { legacyDecorator } from './legacy-decorator.js'

export type Enhancer<T> = Type<T> | T

function attach (key: symbol, decorator: string, method: string) {
  return (...items: unknown[]) => {
    items.forEach((item, i) => {
      const ok = typeof item === 'function'
        ? typeof (item as Function).prototype?.[method] === 'function'
        : typeof (item as Record<string, unknown>)?.[method] === 'function'
      if (!ok) {
        throw new ERR_INVALID_DECLARATION(`@${decorator}() entry ${i} must be a class or an instance with a ${method}() method, given ${describe(item)}.`)
      }
    })
    return legacyDecorator(`@${decorator}()`, (target: object, key2?: string | symbol, descriptor?: PropertyDescriptor): void => {
      const holder = descriptor ? descriptor.value : target
      const current: unknown[] = Reflect.getOwnMetadata(key, holder) ?? []
      Reflect.defineMetadata(key, [...current, ...items], holder)
    })
  }
}

type ClassOrMethodDecorator = ClassDecorator & MethodDecorator

export const UseGuards: (...guards: Array<Enhancer<CanActivate>>) => ClassOrMethodDecorator = attach(kGuards, 'UseGuards', 'canActivate') as any
export const UsePipes: (...pipes: Array<Enhancer<PipeTransform>>) => ClassOrMethodDecorator = attach(kPipes, 'UsePipes', 'transform') as any
export const UseInterceptors: (...interceptors: Array<Enhancer<NestInterceptor>>) => ClassOrMethodDecorator = attach(kInterceptors, 'UseInterceptors', 'intercept') as any
export const UseFilters: (...filters: Array<Enhancer<ExceptionFilter>>) => ClassOrMethodDecorator = attach(kFilters, 'UseFilters', 'catch') as any

/** The exception types a filter handles; none means every exception. */
export function Catch (...types: Function[]): ClassDecorator {
  return legacyDecorator('@Catch()', (target: Function) => { Reflect.defineMetadata(kCatch, types, target) })
}

export function enhancersOf<T> (key: symbol, holder: object): Array<Enhancer<T>> {
  return Reflect.getOwnMetadata(key, holder) ?? []
}

export function catchTypes (filter: object): Function[] {
  const cls = typeof filter === 'function' ? filter : filter.constructor
  return Reflect.getMetadata(kCatch, cls) ?? []
}

export { kGuards, kPipes, kInterceptors, kFilters }
