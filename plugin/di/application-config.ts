import type { DecoratorPluginOptions, EnhancerEntry, VersioningOptions } from '../../types/index.js'
import { kBuiltinToken } from '../util/symbols.js'
import { noEntries } from '../util/empty.js'

/**
 * Injected as `ApplicationConfig` in any module: what the application was registered with (the
 * global prefix, versioning, the global enhancers of the plugin's options), for code that reads
 * it as NestJS code does. The routes are planned from the options before anything is built, so
 * it only reads.
 */
export class ApplicationConfig {
  readonly #options: Partial<DecoratorPluginOptions>

  constructor (options: Partial<DecoratorPluginOptions> = {}) {
    this.#options = options
  }

  getGlobalPrefix (): string { return this.#options.prefix ?? '' }
  getGlobalPrefixOptions (): Record<string, never> { return {} }
  getVersioning (): VersioningOptions | undefined { return this.#options.versioning }
  getGlobalPipes (): Array<EnhancerEntry<unknown>> { return this.#options.globalPipes ?? noEntries }
  getGlobalGuards (): Array<EnhancerEntry<unknown>> { return this.#options.globalGuards ?? noEntries }
  getGlobalInterceptors (): Array<EnhancerEntry<unknown>> { return this.#options.globalInterceptors ?? noEntries }
  getGlobalFilters (): Array<EnhancerEntry<unknown>> { return this.#options.globalFilters ?? noEntries }
}

// The container injects the application's own for this class, of either build of the package.
Object.defineProperty(ApplicationConfig, kBuiltinToken, { value: 'applicationConfig' })
