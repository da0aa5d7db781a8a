import type { FastifyInstance, FastifyRequest } from 'fastify'

type RawRequest = FastifyRequest & { rawBody?: Buffer }
type Done = (error: Error | null, body?: unknown) => void

/**
 * Makes `instance`, a context holding only the routes that take @RawBody(), read JSON and text
 * bodies as bytes: the Buffer is kept as `request.rawBody`, then parsed as Fastify's own parsers
 * do (same errors, same bodyLimit). Every other route keeps Fastify's parsers untouched.
 */
export function installRawBodyParsers (instance: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = instance.initialConfig
  const parseJson = instance.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning) as unknown as (request: FastifyRequest, body: Buffer, done: Done) => void
  if (!instance.hasRequestDecorator('rawBody')) instance.decorateRequest('rawBody', undefined)
  instance.removeContentTypeParser(['application/json', 'text/plain'])
  instance.addContentTypeParser('application/json', { parseAs: 'buffer' }, function fdpRawJson (request, body, done) {
    (request as RawRequest).rawBody = body as Buffer
    parseJson(request, body as Buffer, done)
  })
  instance.addContentTypeParser('text/plain', { parseAs: 'buffer' }, function fdpRawText (request, body, done) {
    (request as RawRequest).rawBody = body as Buffer
    done(null, (body as Buffer).toString('utf8'))
  })
}
