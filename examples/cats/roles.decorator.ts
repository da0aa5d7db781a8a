import { SetMetadata } from '../../plugin/index.js'

export const ROLES_KEY = 'roles'

/** The roles a handler (or a whole controller) requires; read by RolesGuard. */
export const Roles = (...roles: string[]) => SetMetadata(ROLES_KEY, roles)
