import type { ScopeName } from '../types/index.js'

/** Provider lifetimes: one per application, one per request, one per injection point. */
export const Scope = {
  DEFAULT: 'DEFAULT',
  REQUEST: 'REQUEST',
  TRANSIENT: 'TRANSIENT'
} as const satisfies Record<ScopeName, ScopeName>
export type Scope = ScopeName
