import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor, type Request } from '../../plugin/index.js'

/** Logs each handled request with Fastify's logger: handler name and time taken. */
@Injectable()
export class LoggingInterceptor implements NestInterceptor {
  async intercept (context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const request = context.switchToHttp().getRequest<Request>()
    const started = process.hrtime.bigint()
    const result = await next.handle()
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    request.log.info({ handler: `${context.getClass().name}.${context.getHandler().name}`, ms }, 'handled')
    return result
  }
}
