import createError from '@fastify/error'

// Registration errors, coded like Fastify's own FST_ERR_* so users can match on `code`.
export const ERR_INVALID_OPTIONS = createError('FDP_ERR_INVALID_OPTIONS', '%s', 500, TypeError)
export const ERR_NOT_A_MODULE = createError('FDP_ERR_NOT_A_MODULE', '%s', 500, TypeError)
export const ERR_INVALID_PROVIDER = createError('FDP_ERR_INVALID_PROVIDER', '%s', 500, TypeError)
export const ERR_INVALID_EXPORT = createError('FDP_ERR_INVALID_EXPORT', '%s', 500, TypeError)
export const ERR_UNKNOWN_DEPENDENCY = createError('FDP_ERR_UNKNOWN_DEPENDENCY', '%s', 500)
export const ERR_CIRCULAR_DEPENDENCY = createError('FDP_ERR_CIRCULAR_DEPENDENCY', '%s', 500)
export const ERR_MISSING_METADATA = createError('FDP_ERR_MISSING_METADATA', '%s', 500)
export const ERR_UNKNOWN_TOKEN = createError('FDP_ERR_UNKNOWN_TOKEN', '%s', 500)
export const ERR_SCOPED_PROVIDER = createError('FDP_ERR_SCOPED_PROVIDER', '%s', 500)
export const ERR_INVALID_DECLARATION = createError('FDP_ERR_INVALID_DECLARATION', '%s', 500, TypeError)
export const ERR_DUPLICATE_ROUTE = createError('FDP_ERR_DUPLICATE_ROUTE', '%s', 500)
export const ERR_LIFECYCLE_HOOK = createError('FDP_ERR_LIFECYCLE_HOOK', '%s', 500)
export const ERR_MISSING_PEER = createError('FDP_ERR_MISSING_PEER', '%s', 500)
export const ERR_INVALID_PLUGIN = createError('FDP_ERR_INVALID_PLUGIN', '%s', 500, TypeError)
export const ERR_VIEW_NOT_CONFIGURED = createError('FDP_ERR_VIEW_NOT_CONFIGURED', '%s', 500)
export const ERR_UNKNOWN_OVERRIDE = createError('FDP_ERR_UNKNOWN_OVERRIDE', '%s', 500)
export const ERR_PROVIDER_FAILED = createError('FDP_ERR_PROVIDER_FAILED', '%s', 500)
export const ERR_ALREADY_REGISTERED = createError('FDP_ERR_ALREADY_REGISTERED', '%s', 500)
export const ERR_VERSION_CONFLICT = createError('FDP_ERR_VERSION_CONFLICT', '%s', 500)
// Raised while answering a request: no statusCode, so the client gets a plain 500 and the log keeps the message.
export const ERR_INVALID_REDIRECT = createError('FDP_ERR_INVALID_REDIRECT', '%s', 0, TypeError)
