import type { HookName } from '../../types/index.js'
import { kHooks } from '../util/symbols.js'
import { defineMetadata, getMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { legacyDecorator } from '../util/legacy-decorator.js'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Binding, Container } from '../di/container.js'
import type { ModuleNode } from '../di/scanner.js'
import { asError } from '../util/thrown.js'

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

type Resolve = (request: FastifyRequest) => any

// Decided once: singletons are read as they are, request-scoped ones resolved per request.
function resolver (binding: Binding, container: Container): Resolve {
  if (binding.perRequest) return (request) => container.resolveIn(binding, request)
  if (binding.transient) {
    // A hook is one place of use: one instance, made on first use.
    let instance: unknown
    return () => (instance ??= container.transientInstance(binding))
  }
  return () => binding.instance
}

function hookFunction (definition: HookDefinition, resolve: Resolve, awaited: boolean) {
  const { key } = definition
  const call = awaited
    ? async (request: FastifyRequest, args: unknown[]) => (await resolve(request))[key](...args)
    : (request: FastifyRequest, args: unknown[]) => resolve(request)[key](...args)
  const run = async (request: FastifyRequest, args: unknown[]) => {
    try {
      return await call(request, args)
    } catch (error) {
      throw asError(error)
    }
  }
  // Each wrapper declares exactly its hook's arguments (Fastify reads a longer list as a callback
  // hook) and hands back run's promise, so a hook costs one async step per request.
  switch (arity[definition.name]) {
    case 1: return function fdpHook (request: FastifyRequest) { return run(request, [request]) }
    case 2: return function fdpHook (request: FastifyRequest, reply: unknown) { return run(request, [request, reply]) }
    default: return function fdpHook (request: FastifyRequest, reply: unknown, value: unknown) { return run(request, [request, reply, value]) }
  }
}

/** Adds the @Hook methods of `binding`'s class to `instance`, in declaration order. */
export function addHooks (instance: FastifyInstance, binding: Binding, container: Container): void {
  const definitions = hooksOf(binding.definition.useClass)
  if (definitions.length === 0) return
  const resolve = resolver(binding, container)
  for (const definition of definitions) {
    instance.addHook(definition.name as 'onRequest', hookFunction(definition, resolve, binding.perRequest || binding.transient) as any)
  }
}

/** The @Hook methods of the providers a module declares go to the module's context. */
export function addProviderHooks (instance: FastifyInstance, module: ModuleNode, container: Container): void {
  // The module's own binding of each: a listed builtin (Reflector) is looked up as the builtin.
  for (const token of module.providers.keys()) {
    addHooks(instance, container.declared(module, token), container)
  }
}
