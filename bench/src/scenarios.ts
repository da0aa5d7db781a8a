// The requests each scenario sends and the exact answers every target must give.

export type ScenarioName = 'hello' | 'params' | 'pipeline' | 'pipeline-cv' | 'pipeline-dto' | 'query-dto' | 'rxjs-interceptor' | 'async-interceptor' | 'request-scope' | SseScenario
/** Event streams: measured in events per second, to one client and to 100 at once. */
export type SseScenario = 'sse' | 'sse-100'
export type AppName = ScenarioName | 'startup'

export interface BenchRequest {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  headers?: Record<string, string>
  body?: unknown
}

export interface Check extends BenchRequest {
  /** What the check proves, for error messages. */
  why: string
  status: number
  /** The exact JSON body; omitted when only the status is compared (error formats differ). */
  json?: unknown
  /** The exact body, for answers that are no JSON. */
  text?: string
}

export interface Scenario {
  name: ScenarioName
  /** The request that is timed. */
  request: BenchRequest
  /** The timed request's answer, then requests that prove the work is really done. */
  checks: Check[]
}

export const TOKEN = 'Bearer bench-token'

/** Body schema of the pipeline scenario, for Fastify's ajv (raw Fastify, plugin, NestJS). */
export const itemSchema = {
  type: 'object',
  required: ['name', 'qty'],
  properties: {
    name: { type: 'string', minLength: 1 },
    qty: { type: 'integer', minimum: 0 }
  }
} as const

/**
 * Querystring schema of the query-dto scenario for raw Fastify: its ajv coerces `limit` to a
 * number as class-transformer's `@Type(() => Number)` does for these requests.
 */
export const searchQuerySchema = {
  type: 'object',
  required: ['limit'],
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    order: { enum: ['asc', 'desc'] },
    q: { type: 'string', maxLength: 50 }
  }
} as const

/** What the query-dto handler answers. */
export interface Search { limit: number, order?: string, q?: string }

/** The pipeline body. */
export interface Item { name: string, qty: number }

export const forbidden = { message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 }

const item = { name: 'widget', qty: 3 }
const created = { data: { id: 1, name: 'widget', qty: 3 } }
const json = { 'content-type': 'application/json' }

function pipeline (name: 'pipeline' | 'pipeline-cv' | 'pipeline-dto'): Scenario {
  const request: BenchRequest = { method: 'POST', path: '/items', headers: { ...json, authorization: TOKEN }, body: item }
  return {
    name,
    request,
    checks: [
      { ...request, why: 'guard, validation, interceptor', status: 201, json: created },
      { ...request, headers: json, why: 'the guard rejects a missing token', status: 403 },
      { ...request, headers: { ...json, authorization: 'Bearer wrong' }, why: 'the guard rejects a wrong token', status: 403 },
      { ...request, body: { name: 'widget', qty: 'many' }, why: 'validation rejects a bad body', status: 400 }
    ]
  }
}

const paramsRequest: BenchRequest = { method: 'GET', path: '/users/42?fields=name', headers: { 'x-tenant': 'acme' } }
const scopeRequest: BenchRequest = { method: 'GET', path: '/scoped', headers: { 'x-request-id': 'req-7' } }
const rxRequest: BenchRequest = { method: 'GET', path: '/rx/42' }
const asyncRequest: BenchRequest = { method: 'GET', path: '/async/42' }
const searchRequest: BenchRequest = { method: 'GET', path: '/search?limit=20&order=desc&q=cat' }

/**
 * The events of one stream of the SSE scenarios, each `{ data: { n, name } }`: 100, or
 * BENCH_SSE_EVENTS (longer streams weigh the cost of each event over that of opening a stream).
 */
export const SSE_EVENTS = Number(process.env.BENCH_SSE_EVENTS ?? 100)
if (!Number.isInteger(SSE_EVENTS) || SSE_EVENTS < 1) throw new Error(`BENCH_SSE_EVENTS takes a whole number of at least 1, given "${process.env.BENCH_SSE_EVENTS}".`)
export const sseData = (n: number) => ({ n, name: 'tick' })
/** The exact body every target sends for a stream: an empty line, then the events numbered from 1. */
export const sseBody = (() => {
  let text = '\n'
  for (let n = 0; n < SSE_EVENTS; n++) text += `id: ${n + 1}\ndata: ${JSON.stringify(sseData(n))}\n\n`
  return text
})()
export const sseClients: Record<SseScenario, number> = { sse: 1, 'sse-100': 100 }
export const isSse = (name: string): name is SseScenario => name in sseClients

/** The ws-echo scenario: JSON frames `{ event, data }` on a WebSocket; the echo handler answers with `data`. */
export const WS_ECHO_EVENT = 'echo'
export interface WsCheck {
  /** What the check proves, for error messages. */
  why: string
  /** The frame sent, as text. */
  frame: string
  /** The exact answer, as text. */
  answer: string
}
const echoOf = (data: unknown): WsCheck => ({ why: 'the data sent comes back', frame: JSON.stringify({ event: WS_ECHO_EVENT, data }), answer: JSON.stringify(data) })
/** The timed frame and its answer first, then frames that prove every answer is the data sent. */
export const wsChecks: WsCheck[] = [
  echoOf({ hello: 'world', n: 1 }),
  { ...echoOf({ list: [1, 2, 3], nested: { ok: true } }), why: 'other data, echoed as sent' },
  { ...echoOf('text'), why: 'a string, echoed as JSON' }
]

/** What the rxjs-interceptor and async-interceptor scenarios' handler returns, before the interceptor wraps it. */
export const rxItem = (id: string) => ({ id, name: 'widget', tags: ['a', 'b'] })

export const scenarios: Record<ScenarioName, Scenario> = {
  hello: {
    name: 'hello',
    request: { method: 'GET', path: '/hello' },
    checks: [{ method: 'GET', path: '/hello', why: 'a small JSON object', status: 200, json: { hello: 'world' } }]
  },
  params: {
    name: 'params',
    request: paramsRequest,
    checks: [
      { ...paramsRequest, why: 'id as a number, query value, header', status: 200, json: { id: 42, fields: 'name', tenant: 'acme' } },
      { ...paramsRequest, path: '/users/abc?fields=name', why: 'a non-integer id is rejected', status: 400 }
    ]
  },
  pipeline: pipeline('pipeline'),
  'pipeline-cv': pipeline('pipeline-cv'),
  'pipeline-dto': pipeline('pipeline-dto'),
  'query-dto': {
    name: 'query-dto',
    request: searchRequest,
    checks: [
      { ...searchRequest, why: 'limit converted to a number', status: 200, json: { limit: 20, order: 'desc', q: 'cat' } },
      { ...searchRequest, path: '/search?limit=%207%20', why: 'Number(\' 7 \') is 7', status: 200, json: { limit: 7 } },
      { ...searchRequest, path: '/search?limit=0x10&q=', why: 'Number(\'0x10\') is 16', status: 200, json: { limit: 16, q: '' } },
      { ...searchRequest, path: '/search?limit=abc', why: 'a limit that is no number is rejected', status: 400 },
      { ...searchRequest, path: '/search?limit=0', why: 'a limit below 1 is rejected', status: 400 },
      { ...searchRequest, path: '/search?limit=1&limit=2', why: 'a repeated limit is rejected', status: 400 },
      { ...searchRequest, path: '/search?order=desc', why: 'a missing limit is rejected', status: 400 },
      { ...searchRequest, path: '/search?limit=5&order=up', why: 'an unknown order is rejected', status: 400 }
    ]
  },
  'rxjs-interceptor': {
    name: 'rxjs-interceptor',
    request: rxRequest,
    checks: [{ ...rxRequest, why: 'the interceptor maps the handler\'s result', status: 200, json: { data: rxItem('42') } }]
  },
  'async-interceptor': {
    name: 'async-interceptor',
    request: asyncRequest,
    checks: [{ ...asyncRequest, why: 'the interceptor wraps what it awaited', status: 200, json: { data: rxItem('42') } }]
  },
  'request-scope': {
    name: 'request-scope',
    request: scopeRequest,
    checks: [
      { ...scopeRequest, why: 'a request-scoped provider reads this request', status: 200, json: { requestId: 'req-7', count: 1 } },
      { ...scopeRequest, headers: { 'x-request-id': 'req-8' }, why: 'a fresh instance for the next request', status: 200, json: { requestId: 'req-8', count: 1 } }
    ]
  },
  sse: sse('sse'),
  'sse-100': sse('sse-100')
}

// The body of a stream is compared as text by the runner (it is no JSON).
function sse (name: SseScenario): Scenario {
  const request: BenchRequest = { method: 'GET', path: '/events' }
  return { name, request, checks: [{ ...request, why: `a stream of ${SSE_EVENTS} events`, status: 200, text: sseBody }] }
}

/**
 * The startup app: CONTROLLERS controllers (c0, c1, ...), each with these four routes. 500 unless
 * the runner asks for another count (`--controllers`), which it hands to the server in
 * BENCH_CONTROLLERS.
 */
export const CONTROLLERS = Number(process.env.BENCH_CONTROLLERS ?? 500)
/** Requests to the startup app of `count` controllers: its first, middle and last ones. */
export function startupChecksFor (count: number): Check[] {
  const last = count - 1
  const middle = count >> 1
  return [
    { method: 'GET', path: '/c0', why: 'first controller, list route', status: 200, json: { c: 0, items: [] } },
    { method: 'GET', path: `/c${last}/7`, why: 'last controller, route with a parameter', status: 200, json: { c: last, id: '7' } },
    { method: 'POST', path: `/c${middle}`, headers: json, body: { a: 1 }, why: 'a POST route', status: 201, json: { c: middle, body: { a: 1 } } },
    { method: 'DELETE', path: '/c1/3', why: 'a DELETE route', status: 200, json: { c: 1, deleted: '3' } }
  ]
}
export const startupChecks = startupChecksFor(CONTROLLERS)
