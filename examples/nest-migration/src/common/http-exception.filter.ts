import type { FastifyReply, FastifyRequest } from 'fastify'
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from 'fastify-decorator-plugin'

/** Answers every HttpException as `{ statusCode, message, path }`. */
@Catch(HttpException)
export class HttpExceptionFilter implements ExceptionFilter<HttpException> {
  catch (exception: HttpException, host: ArgumentsHost): void {
    const http = host.switchToHttp()
    const request = http.getRequest<FastifyRequest>()
    const status = exception.getStatus()
    const response = exception.getResponse()
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message
    void http.getResponse<FastifyReply>().status(status).send({ statusCode: status, message, path: request.url })
  }
}
