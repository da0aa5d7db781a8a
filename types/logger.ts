// NestJS's logger types: Logger (from the main entry) implements LoggerService.
export type LogLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal'

/** What Logger.overrideLogger() takes: something with NestJS's logging methods. */
export interface LoggerService {
  log(message: any, ...optionalParams: any[]): any
  error(message: any, ...optionalParams: any[]): any
  warn(message: any, ...optionalParams: any[]): any
  debug?(message: any, ...optionalParams: any[]): any
  verbose?(message: any, ...optionalParams: any[]): any
  fatal?(message: any, ...optionalParams: any[]): any
  setLogLevels?(levels: LogLevel[]): any
}
