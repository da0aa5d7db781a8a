import { Injectable, Reflector, type CanActivate, type ExecutionContext, type Request } from '../../plugin/index.js'
import { ROLES_KEY } from './roles.decorator.js'

/**
 * Lets a request through when the handler needs no role, or when the user has one of
 * the roles it needs. The user comes from an `x-roles` header here, to keep the example
 * small; a real app would verify a token and set `request.user` the same way.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor (private readonly reflector: Reflector) {}

  canActivate (context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[] | undefined>(ROLES_KEY, [context.getHandler(), context.getClass()])
    if (!required || required.length === 0) return true
    const request = context.switchToHttp().getRequest<Request>()
    const header = request.headers['x-roles']
    const roles = typeof header === 'string' ? header.split(',').map((role) => role.trim()) : []
    request.user = { roles }
    return required.some((role) => roles.includes(role))
  }
}
