// Parts of error messages.

/** A readable name for a token in messages. */
export function tokenName (token: unknown): string {
  if (typeof token === 'function') return token.name || 'anonymous class'
  if (typeof token === 'symbol') return token.toString()
  if (typeof token === 'string') return `"${token}"`
  return String(token)
}

/** What a value is, for "given X" parts of messages. */
export function describe (value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return `class ${value.name || '(anonymous)'}`
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`
  if (typeof value === 'number') return `number ${String(value)}` // NaN and Infinity have no JSON
  return `${typeof value} ${JSON.stringify(value)}`
}
