import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'

// Query string values as clients send them: numbers in every notation JavaScript's Number()
// reads (and some it does not), wrapped in whitespace, empty, unicode, dates and booleans.

const space = fc.constantFrom('', '', '', ' ', '  ', '\t', '\n', '\u00A0', '\u2003', '\u3000', '\uFEFF', '\u200B')
const integer = fc.integer({ min: -20, max: 2000 })
const numeral = fc.oneof(
  integer.map(String),
  fc.double({ min: -1e4, max: 1e4 }).map(String),
  fc.integer({ min: 0, max: 4096 }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 0, max: 4096 }).map((n) => `0X${n.toString(16).toUpperCase()}`),
  fc.integer({ min: 0, max: 64 }).map((n) => `0b${n.toString(2)}`),
  fc.integer({ min: 0, max: 64 }).map((n) => `0o${n.toString(8)}`),
  fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -4, max: 4 })).map(([m, e]) => `${m}e${e}`),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 })).map(([m, e]) => `${m}E+${e}`),
  fc.constantFrom('.5', '5.', '+7', '-0', '+0', '00012', '1_000', '0x', '1e', 'e3', '--1', '1.2.3', 'Infinity', '-Infinity', '+Infinity',
    'infinity', 'NaN', '0xG', '\uFF11', '\u0661', '1,5', '1e400', '-1e-400', '9007199254740993')
)
const date = fc.oneof(
  fc.date({ noInvalidDate: true, min: new Date(-1e13), max: new Date(1e13) }).map((value) => value.toISOString()),
  fc.constantFrom('2024-01-01', '2024-02-30', '2024-13-01', '2024', 'May 5 2024', 'yesterday', 'Tue, 01 Jan 2024 00:00:00 GMT', '0')
)
const word = fc.oneof(
  fc.constantFrom('', 'true', 'false', '0', '1', 'null', 'undefined', 'a', 'ab', 'abc', 'abcd', '[]', '{}'),
  fc.string({ maxLength: 5 }),
  fc.string({ maxLength: 4, unit: 'grapheme' }),
  fc.string({ maxLength: 3, unit: 'grapheme-composite' })
)

/** One query string value. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(space, numeral, space).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: numeral },
  { weight: 2, arbitrary: date },
  { weight: 3, arbitrary: word }
)

/**
 * A query string over `keys` (and a key the DTO does not declare): keys repeated, given without
 * `=`, or not at all; `start` (say, a valid value for a required key) comes first when given.
 */
export function queryString (keys: string[], start?: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const pair = fc.tuple(fc.constantFrom(...keys, 'extra'), fc.option(queryValue, { freq: 8, nil: undefined }))
    .map(([key, value]) => value === undefined ? encodeURIComponent(key) : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
  // A quarter of them are `start` alone, so that a DTO that refuses most generated strings is
  // still seen accepting some (else one answer for everything would pass).
  const pairs = fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(pair, { maxLength: 6 }) })
  return fc.tuple(start === undefined ? fc.constant([]) : fc.option(start, { freq: 3, nil: undefined }).map((first) => first === undefined ? [] : [first]), pairs)
    .map(([first, rest]) => [...first, ...rest].join('&'))
}

/**
 * On generated `urls`, `compiled` answers every request as `plain` does (status and JSON body),
 * and both verdicts are seen often enough that answering one way for all could not pass.
 */
export async function assertAnswersAlike (plain: FastifyInstance, compiled: FastifyInstance, urls: fc.Arbitrary<string>): Promise<void> {
  const answers = new Map<number, number>()
  await fc.assert(fc.asyncProperty(urls, async (url) => {
    const [expected, actual] = await Promise.all([plain.inject(url), compiled.inject(url)])
    assert.equal(actual.statusCode, expected.statusCode, `status for ${url}`)
    assert.deepEqual(actual.json(), expected.json(), `answer for ${url}`)
    answers.set(expected.statusCode, (answers.get(expected.statusCode) ?? 0) + 1)
  }), { numRuns: 150 })
  assert.ok((answers.get(200) ?? 0) > 10 && (answers.get(400) ?? 0) > 10, JSON.stringify([...answers]))
}
