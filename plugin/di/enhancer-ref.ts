import type { FastifyRequest } from 'fastify'
import type { Type } from '../../types/index.js'
import type { Binding, Container } from './container.js'
import { bindingName } from './binding.js'
import type { ModuleNode } from './scanner.js'
import { enhancerKinds, type EnhancerKind, type EnhancerKinds, type EnhancerLists } from '../decorators/enhancers.js'
import { noEntries, noEnhancerLists } from '../util/empty.js'

/**
 * A guard, pipe, interceptor or filter as the pipeline holds it: an instance given by the
 * user, or a class resolved through DI. Static ones get their instance right after the
 * application is built; request-scoped ones are resolved per request.
 */
export interface EnhancerRef<T> {
  value: T | undefined
  binding?: Binding
  name: string
}

/** The refs of one level's guards, pipes, interceptors and filters. */
export type EnhancerRefLists = { [K in EnhancerKind]: Array<EnhancerRef<EnhancerKinds[K]>> }

/** Tracks refs so their instances can be filled in once the container has built everything. */
export class EnhancerRefs {
  readonly #container: Container
  readonly #pending: Array<EnhancerRef<unknown>> = []
  readonly #checks = new Map<EnhancerRef<unknown>, (value: unknown) => void>()
  readonly #afterFill: Array<() => void> = []

  constructor (container: Container) { this.#container = container }

  of<T> (entries: unknown[], module: ModuleNode): Array<EnhancerRef<T>> {
    // Most levels declare nothing: one shared empty list, frozen so no caller can add to it.
    if (entries.length === 0) return noEntries
    return entries.map((entry) => {
      if (typeof entry !== 'function') return { value: entry as T, name: (entry as object).constructor.name }
      const ref: EnhancerRef<T> = { value: undefined, binding: this.#container.enhancer(module, entry as Type), name: entry.name }
      this.#pending.push(ref)
      return ref
    })
  }

  lists (lists: EnhancerLists, module: ModuleNode): EnhancerRefLists {
    // Most controllers and handlers declare no enhancer: one shared, frozen set of empty lists.
    if (lists.guards.length === 0 && lists.pipes.length === 0 && lists.interceptors.length === 0 && lists.filters.length === 0) return noEnhancerLists
    const refs = {} as Record<EnhancerKind, unknown[]>
    for (let i = 0; i < enhancerKinds.length; i++) refs[enhancerKinds[i].kind] = this.of(lists[enhancerKinds[i].kind], module)
    return refs as EnhancerRefLists
  }

  /**
   * Refs of providers bound already (APP_GUARD and the like): `check` fails on a built
   * instance that is not the enhancer it should be.
   */
  ofBindings<T> (entries: Array<{ binding: Binding, check: (value: unknown) => void }>): Array<EnhancerRef<T>> {
    return entries.map(({ binding, check }) => {
      const ref: EnhancerRef<T> = { value: undefined, binding, name: bindingName(binding) }
      this.#pending.push(ref)
      this.#checks.set(ref, check)
      return ref
    })
  }

  /** Fills static refs; transient ones get one instance per place of use. */
  async fill (): Promise<void> {
    for (const ref of this.#pending) {
      const binding = ref.binding!
      if (binding.perRequest) continue
      ref.value = binding.transient ? await this.#container.transientInstance(binding) : binding.instance
      this.#checks.get(ref)?.(ref.value)
    }
    for (const then of this.#afterFill) then()
  }

  /** Runs `then` once every static ref has its instance (what needs an instance made by a factory). */
  afterFill (then: () => void): void {
    this.#afterFill.push(then)
  }

  get<T> (ref: EnhancerRef<T>, request: FastifyRequest): T | Promise<T> {
    return ref.value !== undefined ? ref.value : this.#container.resolveIn(ref.binding!, request) as Promise<T>
  }
}
