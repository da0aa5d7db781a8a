/** NestJS's request methods, with its numeric values, for `forRoutes({ path, method })`. */
export enum RequestMethod {
  GET = 0,
  POST,
  PUT,
  DELETE,
  PATCH,
  ALL,
  OPTIONS,
  HEAD,
  SEARCH,
  PROPFIND,
  PROPPATCH,
  MKCOL,
  COPY,
  MOVE,
  LOCK,
  UNLOCK
}

/** The HTTP method a RequestMethod names; undefined for ALL (and NestJS's internal -1). */
export function httpMethod (method: RequestMethod | -1): string | undefined {
  if (method === RequestMethod.ALL || method === -1) return undefined
  return RequestMethod[method]
}
