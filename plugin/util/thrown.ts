/** Wraps a thrown non-Error so Fastify's hook runner keeps it; filters see the original. */
export class ThrownValue extends Error {
  readonly value: unknown
  constructor (value: unknown) {
    super(`A non-Error value was thrown: ${String(value)}`)
    this.value = value
  }
}

export function asError (value: unknown): Error {
  return value instanceof Error ? value : new ThrownValue(value)
}
