import { constants } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { ERR_INVALID_OPTIONS } from '../util/errors.js'
import { describe } from '../util/describe.js'

// A process cannot catch these: a listener for them throws.
const uncatchable = new Set(['SIGKILL', 'SIGSTOP'])

/** The `shutdownSignals` option (or what `what` names) as signal names (trimmed, upper-cased as NestJS does, once each). */
export function shutdownSignalsOf (option: unknown, what = 'decoratorPlugin option "shutdownSignals"'): NodeJS.Signals[] {
  if (option === undefined) return []
  if (!Array.isArray(option)) {
    throw new ERR_INVALID_OPTIONS(`${what} must be an array of signal names such as ['SIGTERM', 'SIGINT'], given ${describe(option)}.`)
  }
  const signals = option.map((entry, i) => {
    const signal = typeof entry === 'string' ? entry.trim().toUpperCase() : ''
    if (!(signal in constants.signals) || uncatchable.has(signal)) {
      throw new ERR_INVALID_OPTIONS(`${what}[${i}] must be the name of a signal a process can catch (SIGTERM, SIGINT, SIGHUP, ...), given ${describe(entry)}.`)
    }
    return signal as NodeJS.Signals
  })
  return [...new Set(signals)]
}

export interface Shutdown {
  /** The signal that closes the app, for beforeApplicationShutdown and onApplicationShutdown. */
  signal?: NodeJS.Signals
  /** Starts listening for the signals. */
  listen: () => void
  /** Stops listening; called once the app's hooks have run. */
  stop: () => void
}

/**
 * NestJS's enableShutdownHooks(): on one of `signals`, `app.close()` runs the hooks with the
 * signal; then, if nothing else listens for it (another application, the app's own handler),
 * the signal is raised again for its default course. A failed close is logged and exits with 1.
 */
export function signalShutdown (app: FastifyInstance, signals: NodeJS.Signals[]): Shutdown {
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown.signal !== undefined) return
    shutdown.signal = signal
    app.close().then(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    }, (error: unknown) => {
      app.log.error({ err: error }, `Closing the application on ${signal} failed`)
      process.exit(1)
    })
  }
  const shutdown: Shutdown = {
    listen: () => { for (const signal of signals) process.on(signal, onSignal) },
    stop: () => { for (const signal of signals) process.removeListener(signal, onSignal) }
  }
  return shutdown
}
