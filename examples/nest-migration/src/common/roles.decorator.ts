import { SetMetadata } from 'fastify-decorator-plugin'

export const ROLES_KEY = 'roles'

/** The roles allowed to call a handler (or every handler of a controller). */
export const Roles = (...roles: string[]) => SetMetadata(ROLES_KEY, roles)
