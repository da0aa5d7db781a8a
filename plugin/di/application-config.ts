import type { DecoratorPluginOptions, EnhancerEntry, VersioningOptions } from '../../types/index.js'
import { kBuiltinToken } from '../util/symbols.js'
import { noEntries } from '../util/empty.js'
import { RequestMethod } from '../common/request-method.js'

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

  /** The routes served without the prefix, each as `{ path, requestMethod }` as NestJS lists them; `{}` without any. */
  getGlobalPrefixOptions (): { exclude?: Array<{ path: string, requestMethod: number }> } {
    const exclude = this.#options.prefixExclude
    if (exclude === undefined) return {}
    return { exclude: exclude.map((route) => typeof route === 'string' ? { path: route, requestMethod: RequestMethod.ALL } : { path: route.path, requestMethod: route.method as number === -1 ? RequestMethod.ALL : route.method }) }
  }

  getVersioning (): VersioningOptions | undefined { return this.#options.versioning }
  getGlobalPipes (): Array<EnhancerEntry<unknown>> { return this.#options.globalPipes ?? noEntries }
  getGlobalGuards (): Array<EnhancerEntry<unknown>> { return this.#options.globalGuards ?? noEntries }
  getGlobalInterceptors (): Array<EnhancerEntry<unknown>> { return this.#options.globalInterceptors ?? noEntries }
  getGlobalFilters (): Array<EnhancerEntry<unknown>> { return this.#options.globalFilters ?? noEntries }
}

// The container injects the application's own for this class, of either build of the package.
Object.defineProperty(ApplicationConfig, kBuiltinToken, { value: 'applicationConfig' })
