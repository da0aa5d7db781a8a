import type { IncomingMessage, ServerResponse } from 'node:http'
import { Injectable, Logger, type NestMiddleware } from 'fastify-decorator-plugin'

/** Numbers the requests it sees, answers the number in `x-request-id`, and logs each request when it is answered. */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware<IncomingMessage, ServerResponse> {
  private readonly logger = new Logger('HTTP')
  private seen = 0

  use (req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const id = String(++this.seen)
    res.setHeader('x-request-id', id)
    res.on('finish', () => this.logger.log(`#${id} ${req.method} ${req.url} ${res.statusCode}`))
    next()
  }
}
