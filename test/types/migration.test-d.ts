// Type tests for code written for NestJS: it compiles unchanged once its import specifiers change.
import { Injectable, type CanActivate, type ExecutionContext, type Request } from '../../plugin/index.js'

// As in NestJS, the request and the response are `any` unless told otherwise.
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate (context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest()
    const [scheme, token] = request.headers.authorization.split(' ')
    context.switchToHttp().getResponse().header('x-checked', 'yes')
    return scheme === 'Bearer' && token === request.user.roles[0]
  }
}

export function typedRequest (context: ExecutionContext): string {
  const request = context.switchToHttp().getRequest<Request>()
  // @ts-expect-error: told it is a Fastify request, `user` may be undefined
  return request.user.name
}
