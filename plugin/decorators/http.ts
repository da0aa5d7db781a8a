import { kHeaders, kHttpCode, kRedirect, kRender } from '../util/symbols.js'
import { defineMetadata, getOwnMetadata } from '../util/metadata.js'
import { ERR_INVALID_DECLARATION } from '../util/errors.js'
import { describe } from '../util/describe.js'
import { legacyDecorator } from '../util/legacy-decorator.js'

/** Sets the success status of a handler. */
export function HttpCode (status: number): MethodDecorator {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new ERR_INVALID_DECLARATION(`@HttpCode() takes an HTTP status from 100 to 599, given ${describe(status)}.`)
  }
  return legacyDecorator('@HttpCode()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => { defineMetadata(kHttpCode, status, descriptor.value as object) })
}

/** Adds a response header to a handler's replies (also on error replies). */
export function Header (name: string, value: string): MethodDecorator {
  if (typeof name !== 'string' || name === '' || /[\r\n]/.test(name) || /[\r\n]/.test(String(value))) {
    throw new ERR_INVALID_DECLARATION(`@Header() takes a header name and a value without line breaks, given ${describe(name)}.`)
  }
  return legacyDecorator('@Header()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object
    const headers: Array<[string, string]> = [...(getOwnMetadata<Array<[string, string]>>(kHeaders, handler) ?? [])]
    headers.unshift([name, String(value)]) // decorators apply bottom-up; keep source order
    defineMetadata(kHeaders, headers, handler)
  })
}

export interface RedirectDefinition { url: string, statusCode: number }

/** Redirects to `url`; a returned `{ url, statusCode }` overrides either. */
export function Redirect (url = '', statusCode = 302): MethodDecorator {
  if (typeof url !== 'string') throw new ERR_INVALID_DECLARATION(`@Redirect() takes a URL string, given ${describe(url)}.`)
  if (!Number.isInteger(statusCode) || statusCode < 300 || statusCode > 399) {
    throw new ERR_INVALID_DECLARATION(`@Redirect() takes a 3xx status, given ${describe(statusCode)}.`)
  }
  return legacyDecorator('@Redirect()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    defineMetadata(kRedirect, { url, statusCode } satisfies RedirectDefinition, descriptor.value as object)
  })
}

/** Renders the returned object with the named view through @fastify/view. */
export function Render (view: string): MethodDecorator {
  if (typeof view !== 'string' || view === '') {
    throw new ERR_INVALID_DECLARATION(`@Render() takes a view name, given ${describe(view)}.`)
  }
  return legacyDecorator('@Render()', (target: object, key: string | symbol, descriptor: PropertyDescriptor) => { defineMetadata(kRender, view, descriptor.value as object) })
}
