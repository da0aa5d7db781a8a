import type { MessageEvent } from '../../types/index.js'

// The text/event-stream format (the HTML standard's "server-sent events"), as NestJS writes it.

const lineBreak = /\r\n|\r|\n/
const lineBreaks = /[\r\n]/g

/** Each line of `text` behind `prefix`: a line break inside a field would end the field. */
function lines (text: string, prefix: string): string {
  if (!lineBreak.test(text)) return prefix + text + '\n'
  const parts = text.split(lineBreak)
  let out = ''
  for (let i = 0; i < parts.length; i++) out += prefix + parts[i] + '\n'
  return out
}

// One-line fields lose their line breaks rather than let a value start a field of its own.
const field = (name: string, value: unknown): string => name + String(value).replace(lineBreaks, '') + '\n'

/** The numbers given to a stream's events that have no id of their own, from 1 (as NestJS). */
export interface Numbering { last: number }

/** One event as text. An emitted value that is not an object is the event's data. */
export function formatEvent (value: unknown, numbering: Numbering): string {
  const event: MessageEvent = typeof value === 'object' && value !== null ? value : { data: value as string }
  const { data, type, retry, comment } = event
  const given = event.id
  // JSON first: an event it cannot write (a BigInt, a cycle) throws before taking a number.
  const isJson = typeof data === 'object' && data !== null
  const json = isJson ? JSON.stringify(data) : ''
  // The usual event, JSON data alone, in one expression (fewer strings joined).
  if (isJson && type == null && given == null && retry == null && comment == null) return 'id: ' + ++numbering.last + '\ndata: ' + json + '\n\n'

  let out = type !== undefined && type !== null ? field('event: ', type) : ''
  if (given !== undefined && given !== null) out += field('id: ', given)
  // A comment alone is no event: it takes no number.
  else if (!(comment !== undefined && comment !== null && data === undefined && type === undefined && retry === undefined)) out += 'id: ' + ++numbering.last + '\n'
  if (retry !== undefined && retry !== null) out += field('retry: ', retry)
  if (comment !== undefined && comment !== null) out += lines(String(comment), ': ')
  // JSON has no line breaks of its own (those in strings are escaped): one data line.
  if (isJson) out += 'data: ' + json + '\n'
  else if (data !== undefined && data !== null) out += lines(String(data), 'data: ')
  return out + '\n'
}
