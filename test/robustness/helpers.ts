import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { Writable } from 'node:stream'
import http from 'node:http'
import net from 'node:net'
import assert from 'node:assert/strict'
import type { TestContext } from 'node:test'
import { decoratorPlugin } from '../../plugin/index.js'
import type { DecoratorPluginOptions } from '../../types/index.js'

export interface LogLine { level: number, reqId?: string, msg?: string, err?: { type: string, message: string } }

/** Fastify's log lines, parsed, as the app writes them. */
export function captureLogs (): { stream: Writable, lines: LogLine[], errors: () => LogLine[] } {
  const lines: LogLine[] = []
  const stream = new Writable({
    write (chunk, encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line))
      done()
    }
  })
  return { stream, lines, errors: () => lines.filter((line) => line.level >= 40) }
}

/** A ready app with Fastify options of the test's choosing; closed when the test ends. */
export async function buildApp (t: TestContext, module: Function, fastify: FastifyServerOptions = {}, options: Partial<DecoratorPluginOptions> = {}): Promise<FastifyInstance> {
  const app = Fastify(fastify)
  t.after(() => app.close())
  await app.register(decoratorPlugin, { ...options, module } as DecoratorPluginOptions)
  await app.ready()
  return app
}

export interface RawResponse { status: number, headers: http.IncomingHttpHeaders, body: string }

/** One request over a real socket of its own. */
export function request (port: number, path: string, options: http.RequestOptions = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, ...options }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Listens on 127.0.0.1 on a free port and returns it. */
export async function listen (app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  return (app.server.address() as { port: number }).port
}

/** What escapes as an unhandled rejection or uncaught exception while the test runs. */
export function escapes (t: TestContext): unknown[] {
  const escaped: unknown[] = []
  const onEscape = (reason: unknown) => { escaped.push(reason) }
  process.on('unhandledRejection', onEscape)
  process.on('uncaughtException', onEscape)
  t.after(() => {
    process.off('unhandledRejection', onEscape)
    process.off('uncaughtException', onEscape)
  })
  return escaped
}

/** GET `path` with an `x-value` header over `agent`'s (keep-alive) sockets. */
export function getWithValue (agent: http.Agent, port: number, path: string, value: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent, headers: { 'x-value': value } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
      res.on('error', reject)
    }).on('error', reject)
  })
}

/** Sends `head` (and what follows) on a socket of its own; resolves with the socket once written. */
export function sendRaw (port: number, head: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head, () => resolve(socket)))
    socket.on('error', () => {}) // the server may reset what the client already dropped
    socket.once('error', reject)
  })
}

/** Waits (5 s at most) for a condition to hold. */
export async function until (condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/** How many connections the server has open. */
export function connections (server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, n) => error ? reject(error) : resolve(n)))
}
