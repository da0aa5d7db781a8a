import type { Binding, Box, Container } from './container.js'

/**
 * Options only the package itself passes to the plugin (the testing entry), under a symbol so
 * they stay out of the public option list.
 */
export const kInternal = Symbol('fdp.internal')

export interface BuiltApplication {
  container: Container
  /** Runs every onModuleInit, then every onApplicationBootstrap, in order. */
  init: () => Promise<void>
  /** Runs every onModuleDestroy, beforeApplicationShutdown and onApplicationShutdown, in reverse order. */
  destroy: () => Promise<void>
}

export interface InternalOptions {
  /** Module classes replaced by others wherever they are imported or re-exported. */
  replaceModules?: Map<unknown, unknown>
  /** Gives a stand-in for a dependency no module provides (testing's useMocker()); a falsy one leaves the error. */
  mocker?: (token: unknown) => unknown
  /** An instance an earlier build of the same graph made for this binding, reused instead of building it again. */
  seed?: (binding: Binding) => Box | undefined
  /** Modules, providers and controllers are built, but no route is registered. */
  contextOnly?: boolean
  /** Set: the caller runs the lifecycle hooks it is handed; nothing runs on ready or on close. */
  manualLifecycle?: (application: BuiltApplication) => void
}

export function internalOptions (options: object): InternalOptions | undefined {
  return (options as { [kInternal]?: InternalOptions })[kInternal]
}
