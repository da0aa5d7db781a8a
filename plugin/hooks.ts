import type { HookName } from '../types/index.js'
import { kHooks } from './symbols.js'
import { defineMetadata, getMetadata } from './metadata.js'
import { ERR_INVALID_DECLARATION } from './errors.js'
import { legacyDecorator } from './legacy-decorator.js'

export interface HookDefinition { name: HookName, key: string | symbol }

/** Request hooks by the arguments Fastify passes (an async hook must declare exactly those). */
export const arity: Record<HookName, 1 | 2 | 3> = {
  onRequest: 2,
  preParsing: 3,
  preValidation: 2,
  preHandler: 2,
  preSerialization: 3,
  onSend: 3,
  onResponse: 2,
  onError: 3,
  onTimeout: 2,
  onRequestAbort: 1
}
const applicationHooks = new Set(['onReady', 'onListen', 'onClose', 'preClose', 'onRoute', 'onRegister'])

/**
 * Makes the method a Fastify request hook of the controller's context (on a controller) or of
 * the module's context (on a provider listed in a module's `providers`). It is called on the
 * DI-resolved instance with Fastify's hook arguments; what it returns replaces the payload in
 * `preParsing`, `preSerialization` and `onSend`.
 */
export function Hook (name: HookName): MethodDecorator {
  return legacyDecorator(`@Hook(${JSON.stringify(name)})`, (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    const cls = typeof target === 'function' ? target : target.constructor
    const owner = `${cls.name}.${String(key)}`
    if (!Object.hasOwn(arity, name)) {
      const hint = applicationHooks.has(name) ? ` "${name}" is an application hook, not a request hook; use onModuleInit()/onModuleDestroy() for start-up and shut-down work.` : ''
      throw new ERR_INVALID_DECLARATION(`@Hook(${JSON.stringify(name)}) on ${owner}: not a Fastify request hook.${hint} Use one of ${Object.keys(arity).join(', ')}.`)
    }
    if (typeof target === 'function') {
      throw new ERR_INVALID_DECLARATION(`@Hook('${name}') on ${owner}: the method is static; hooks are called on the instance, so make it an instance method.`)
    }
    if (typeof descriptor?.value !== 'function') {
      throw new ERR_INVALID_DECLARATION(`@Hook('${name}') on ${owner}: only methods can be hooks.`)
    }
    const hooks: HookDefinition[] = [...(getMetadata<HookDefinition[]>(kHooks, cls) ?? []), { name, key }]
    defineMetadata(kHooks, hooks, cls)
  })
}

export function hooksOf (cls: Function | undefined): HookDefinition[] {
  return cls === undefined ? [] : getMetadata(kHooks, cls) ?? []
}
