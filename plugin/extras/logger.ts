import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { LoggerService, LogLevel } from '../../types/logger.js'
import type { RoutePlan } from '../routing/planner.js'

type PinoLevel = 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal'
const pinoLevels: Record<LogLevel, PinoLevel> = { log: 'info', error: 'error', warn: 'warn', debug: 'debug', verbose: 'trace', fatal: 'fatal' }
const levelValues: Record<LogLevel, number> = { verbose: 0, debug: 1, log: 2, warn: 3, error: 4, fatal: 5 }

interface LoggerState {
  /** A Logger has been made or used: applications started from now on carry the request context. */
  used: boolean
  /** The loggers of the running applications, the latest last: lines outside a request go to it. */
  apps: FastifyBaseLogger[]
  /** Logger.overrideLogger(service); null: every line dropped. */
  override: LoggerService | null | undefined
  levels: LogLevel[] | undefined
  /** Lines held back while a buffer is attached, and those a detached buffer left for flush(). */
  buffer: Array<() => void> | undefined
  pending: Array<() => void>
  /** The logger of the request being served (request.log, with its id), where one is. */
  requests: AsyncLocalStorage<FastifyBaseLogger> | undefined
}

// Process-wide, as NestJS's static logger is, and shared by both builds of the package when a
// process loads the two (a Logger of one writes through an application of the other).
const kState = Symbol.for('fastify-decorator-plugin.logger')
const state: LoggerState = (globalThis as Record<symbol, LoggerState>)[kState] ??= {
  used: false, apps: [], override: undefined, levels: undefined, buffer: undefined, pending: [], requests: undefined
}

function enabled (level: LogLevel): boolean {
  const { levels } = state
  if (levels === undefined) return true
  if (levels.includes(level)) return true
  const highest = Math.max(...levels.map((name) => levelValues[name]))
  return levels.length > 0 && levelValues[level] >= highest
}

const isStack = (value: unknown): value is string => typeof value === 'string' && /^(.)+\n\s+at .+:\d+:\d+/.test(value)

// NestJS's reading of the arguments: a last string is the context; for error(), the one
// before it (or a stack-shaped second argument) is the stack.
function split (level: LogLevel, args: unknown[]): { messages: unknown[], context?: string, stack?: string } {
  if (level === 'error' && args.length === 2) {
    return isStack(args[1]) ? { messages: [args[0]], stack: args[1] } : { messages: [args[0]], context: args[1] as string }
  }
  let messages = args
  let context: string | undefined
  if (args.length > 1 && typeof args[args.length - 1] === 'string') {
    context = args[args.length - 1] as string
    messages = args.slice(0, -1)
  }
  if (level === 'error' && messages.length > 1 && (typeof messages[messages.length - 1] === 'string' || messages[messages.length - 1] === undefined)) {
    return { messages: messages.slice(0, -1), context, stack: messages[messages.length - 1] as string | undefined }
  }
  return { messages, context }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value))

function text (value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function writeTo (log: FastifyBaseLogger, level: LogLevel, args: unknown[]): void {
  const { messages, context, stack } = split(level, args)
  const method = pinoLevels[level]
  for (const message of messages) {
    const fields: Record<string, unknown> = {}
    if (context !== undefined) fields.context = context
    if (stack !== undefined) fields.stack = stack
    if (message instanceof Error) log[method]({ ...fields, err: message }, message.message)
    else if (isPlainObject(message)) log[method]({ ...message, ...fields })
    else log[method](fields, text(message))
  }
}

// Before any application runs (scripts, unit specs without an application): one line per message on the console.
function writeToConsole (level: LogLevel, args: unknown[]): void {
  const { messages, context, stack } = split(level, args)
  const out = level === 'error' || level === 'fatal' ? process.stderr : process.stdout
  for (const message of messages) {
    out.write(`${level.toUpperCase()} ${context === undefined ? '' : `[${context}] `}${message instanceof Error ? message.stack ?? message.message : text(message)}\n`)
  }
  if (stack !== undefined) out.write(`${stack}\n`)
}

function emit (level: LogLevel, args: unknown[]): void {
  if (state.buffer !== undefined) {
    state.buffer.push(() => emit(level, args))
    return
  }
  const { override } = state
  if (override === null || !enabled(level)) return
  if (override !== undefined) {
    (override[level] as ((...args: unknown[]) => unknown) | undefined)?.apply(override, args)
    return
  }
  const log = state.requests?.getStore() ?? state.apps[state.apps.length - 1]
  if (log === undefined) writeToConsole(level, args)
  else writeTo(log, level, args)
}

// What the built-in service does: lines through the current Fastify logger.
const fastifyService: LoggerService = {
  log: (message, ...rest) => emit('log', [message, ...rest]),
  error: (message, ...rest) => emit('error', [message, ...rest]),
  warn: (message, ...rest) => emit('warn', [message, ...rest]),
  debug: (message, ...rest) => emit('debug', [message, ...rest]),
  verbose: (message, ...rest) => emit('verbose', [message, ...rest]),
  fatal: (message, ...rest) => emit('fatal', [message, ...rest])
}

/**
 * NestJS's Logger, writing through the application's Fastify (pino) logger: `log` is pino's
 * `info`, `verbose` its `trace`, the others keep their names; the context is the line's
 * `context` field. Inside a request the line goes through `request.log`, so it carries the
 * request's id; outside, through the logger of the latest application started; before any,
 * to the console.
 */
export class Logger implements LoggerService {
  protected readonly context?: string
  protected readonly options: { timestamp?: boolean }

  constructor (...args: [context?: string, options?: { timestamp?: boolean }]) {
    this.context = args[0]
    this.options = args[1] ?? {}
    state.used = true
  }

  /** Where this logger's lines go: the service given to overrideLogger(), else the Fastify logger. */
  get localInstance (): LoggerService {
    return state.override ?? fastifyService
  }

  // Arguments as NestJS takes them: (message, context?), and (message, stack?, context?) for error().
  error (message: any, ...optionalParams: any[]): void { this.#emit('error', message, optionalParams) }
  log (message: any, ...optionalParams: any[]): void { this.#emit('log', message, optionalParams) }
  warn (message: any, ...optionalParams: any[]): void { this.#emit('warn', message, optionalParams) }
  debug (message: any, ...optionalParams: any[]): void { this.#emit('debug', message, optionalParams) }
  verbose (message: any, ...optionalParams: any[]): void { this.#emit('verbose', message, optionalParams) }
  fatal (message: any, ...optionalParams: any[]): void { this.#emit('fatal', message, optionalParams) }

  // The instance's context goes last, where NestJS puts it.
  #emit (level: LogLevel, message: unknown, optionalParams: unknown[]): void {
    emit(level, this.context === undefined ? [message, ...optionalParams] : [message, ...optionalParams, this.context])
  }

  static error (message: any, ...optionalParams: any[]): void { Logger.#static('error', message, optionalParams) }
  static log (message: any, ...optionalParams: any[]): void { Logger.#static('log', message, optionalParams) }
  static warn (message: any, ...optionalParams: any[]): void { Logger.#static('warn', message, optionalParams) }
  static debug (message: any, ...optionalParams: any[]): void { Logger.#static('debug', message, optionalParams) }
  static verbose (message: any, ...optionalParams: any[]): void { Logger.#static('verbose', message, optionalParams) }
  static fatal (message: any, ...optionalParams: any[]): void { Logger.#static('fatal', message, optionalParams) }

  static #static (level: LogLevel, message: unknown, optionalParams: unknown[]): void {
    state.used = true
    emit(level, [message, ...optionalParams])
  }

  /**
   * A LoggerService receives every line instead (with NestJS's arguments); a list of levels keeps
   * only those (and the ones above the highest listed); false drops everything; true restores.
   */
  static overrideLogger (logger: LoggerService | LogLevel[] | boolean): void {
    if (Array.isArray(logger)) {
      state.levels = [...logger]
      state.override?.setLogLevels?.(logger)
    } else if (typeof logger === 'object' && logger !== null) {
      state.override = logger
    } else {
      state.override = logger === true ? undefined : null
      if (logger === true) state.levels = undefined
    }
  }

  /** Whether lines of `level` pass the levels given to overrideLogger() (all do until then). */
  static isLevelEnabled (level: LogLevel): boolean { return enabled(level) }

  /** Holds lines back until flush(). */
  static attachBuffer (): void { state.buffer ??= [] }
  /** Stops holding lines back; those held stay until flush(). */
  static detachBuffer (): void {
    const held = state.buffer
    state.buffer = undefined
    if (held !== undefined) state.pending.push(...held)
  }

  /** Writes the lines held back, and stops holding. */
  static flush (): void {
    Logger.detachBuffer()
    for (const line of state.pending.splice(0)) line()
  }

  static getTimestamp (): string {
    return new Date().toLocaleString(undefined, { year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', day: '2-digit', month: '2-digit' })
  }
}

/** While the application runs, lines outside a request go through its logger. */
export function useAppLogger (app: FastifyInstance): void {
  state.apps.push(app.log)
  app.addHook('onClose', async () => {
    const index = state.apps.lastIndexOf(app.log)
    if (index !== -1) state.apps.splice(index, 1)
  })
}

// Fastify carries the context on through body parsing (its parsers resume in the request's scope).
function enterRequest (request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  state.requests!.run(request.log, done)
}

/**
 * Once a Logger exists, each route of the application enters its request's context first (one
 * onRequest hook), so lines written while serving it carry its id. An application that never makes a Logger adds
 * nothing: no hook, and no AsyncLocalStorage, whose bookkeeping every promise pays once it is on.
 */
export function addRequestContext (routes: RoutePlan[]): void {
  if (!state.used) return
  state.requests ??= new AsyncLocalStorage()
  for (const route of routes) route.hooks.onRequest.unshift(enterRequest)
}
