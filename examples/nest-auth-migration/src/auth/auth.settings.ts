// Read once at startup; a deployment sets TOKEN_SECRET.
export const tokenSecret = process.env.TOKEN_SECRET ?? 'not-a-production-secret'
export const tokenLifetime = '15m'
