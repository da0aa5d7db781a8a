import * as exceptions from './exceptions.js'
import { HttpException, reasonPhrase, type HttpExceptionClass } from './exceptions.js'

// The built-in exception of each status, found once among the classes exceptions.ts exports
// (a module apart, so that it can walk them).
const byStatus = new Map<number, HttpExceptionClass>()
for (const value of Object.values(exceptions)) {
  if (typeof value === 'function' && value.prototype instanceof HttpException) {
    const Cls = value as HttpExceptionClass
    byStatus.set(new Cls().getStatus(), Cls)
  }
}

/** The built-in exception of a status with `message`, or an HttpException with the same body. */
export function exceptionFor (status: number, message?: string | string[]): HttpException {
  const Cls = byStatus.get(status)
  if (Cls) return new Cls(message)
  const error = reasonPhrase(status)
  return new HttpException({ statusCode: status, message: message ?? error, error }, status)
}
