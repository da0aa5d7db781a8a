/** An error a gateway handler throws for the client: sent as an `exception` event with `{ status: 'error', message }`, or the object given. */
export class WsException extends Error {
  readonly #error: string | object

  constructor (error: string | object) {
    super()
    this.#error = error
    const message = typeof error === 'string' ? error : (error as { message?: unknown })?.message
    // As NestJS: an object without a message gives the class name in words ("Ws Exception").
    this.message = typeof message === 'string' ? message : (new.target.name.match(/[A-Z][a-z]+|[0-9]+/g) ?? [new.target.name]).join(' ')
  }

  getError (): string | object { return this.#error }
}

/** A WsException of this build, or of NestJS's (any class of that name up the prototype chain). */
export function isWsException (value: unknown): value is WsException {
  if (value instanceof WsException) return true
  if (typeof value !== 'object' || value === null || typeof (value as WsException).getError !== 'function') return false
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === 'WsException') return true
  }
  return false
}
