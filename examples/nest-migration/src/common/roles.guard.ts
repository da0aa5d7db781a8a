import { Injectable, type CanActivate, type ExecutionContext } from 'fastify-decorator-plugin'
import { Reflector } from 'fastify-decorator-plugin'
import { ROLES_KEY } from './roles.decorator.js'

/** Lets a request through when its `x-roles` header names one of the handler's @Roles(). */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor (private readonly reflector: Reflector) {}

  canActivate (context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[] | undefined>(ROLES_KEY, [context.getHandler(), context.getClass()])
    if (required === undefined) return true
    const header = context.switchToHttp().getRequest().headers['x-roles']
    const granted = typeof header === 'string' ? header.split(',').map((role) => role.trim()) : []
    return required.some((role) => granted.includes(role))
  }
}
