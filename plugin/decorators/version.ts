import type { VersionValue } from '../../types/index.js'
import { VERSION_NEUTRAL } from '../util/tokens.js'
import { kVersion } from '../util/symbols.js'
import { defineMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { legacyDecorator } from '../util/legacy-decorator.js'

/** A non-empty version string, a non-empty list of them, or VERSION_NEUTRAL. */
export function validVersion (value: unknown): boolean {
  const list = Array.isArray(value) ? value : [value]
  return list.length > 0 && list.every((v) => (typeof v === 'string' && v !== '') || v === VERSION_NEUTRAL)
}

/** Fails a declaration (`what` names it) whose version is not a string, a list, or VERSION_NEUTRAL. */
export function checkVersion (value: unknown, what: string): void {
  if (!validVersion(value)) {
    throw new ERR_INVALID_DECLARATION(`${what} takes a non-empty string, an array of them, or VERSION_NEUTRAL, given ${describe(value)}.`)
  }
}

/** The versions a handler answers: a string, a list, or VERSION_NEUTRAL. */
export function Version (version: VersionValue): MethodDecorator {
  checkVersion(version, '@Version()')
  return legacyDecorator('@Version()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => { defineMetadata(kVersion, version, descriptor.value as object) })
}

export function handlerVersion (handler: object): VersionValue | undefined {
  return getOwnMetadata(kVersion, handler)
}
