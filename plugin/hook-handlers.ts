import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Binding, Container } from './container.js'
import type { ModuleNode } from './scanner.js'
import { arity, hooksOf, type HookDefinition } from './hooks.js'
import { asError } from './thrown.js'

type Resolve = (request: FastifyRequest) => any

// Decided once: singletons are read as they are, request-scoped ones resolved per request.
function resolver (binding: Binding, container: Container): Resolve {
  if (binding.perRequest) return (request) => container.resolveIn(binding, request)
  if (binding.transient) {
    // A hook is one place of use: one instance, made on first use.
    let instance: unknown
    return () => (instance ??= container.resolveIn(binding, {} as FastifyRequest))
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
