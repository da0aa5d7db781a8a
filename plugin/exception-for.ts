import { HttpException, builtInExceptions, reasonPhrase } from './exceptions.js'

/** The built-in exception of a status with `message`, or an HttpException with the same body. */
export function exceptionFor (status: number, message?: string | string[]): HttpException {
  const Cls = builtInExceptions.get(status)
  if (Cls) return new Cls(message)
  const error = reasonPhrase(status)
  return new HttpException({ statusCode: status, message: message ?? error, error }, status)
}
