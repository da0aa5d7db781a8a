import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  BadRequestException, Catch, Controller, Get, Header, Hook, HttpException, Injectable, Module, Redirect, Res, UseFilters
} from '../../plugin/index.js'
import type { ArgumentsHost, Response } from '../../plugin/index.js'
import { buildApp, captureLogs } from './helpers.js'

// Internal details (serializer messages, hook errors, file paths) stay in the log: the client
// gets the generic 500, and the log gets one line with the request id and the cause.
const generic = { statusCode: 500, message: 'Internal server error' }

function circular (): Record<string, unknown> {
  const body: Record<string, unknown> = { statusCode: 400 }
  body.self = body
  return body
}

const secretJson = { toJSON () { throw new Error('cannot serialize /srv/app/secret.js') } }

@Catch()
class SendsCircular {
  catch (exception: unknown, host: ArgumentsHost) { host.switchToHttp().getResponse<Response>().code(409).send(circular()) }
}

@Controller('leaks')
class LeakController {
  @Get('circular') circular () { throw new HttpException(circular(), 400) }
  @Get('to-json') toJson () { throw new BadRequestException(secretJson as unknown as Record<string, unknown>) }
  @Get('filter-circular') @UseFilters(SendsCircular) filterCircular () { throw new Error('caught') }
  @Get('status/:kind') status () { throw new HttpException('x', badStatus as number) }
  @Get('redirect') @Redirect('/elsewhere') redirect () { return { statusCode: 999 } }
  @Get('reply-code') replyCode (@Res() reply: Response) { reply.code(999).send('never') }
  @Get('ok') ok () { return { ok: true } }
}
let badStatus: unknown = 999

// A controller whose every answer fails in a hook, success and error answers alike.
@Controller('hooked')
class HookedController {
  @Hook('onSend') onSend (request: unknown, reply: Response) {
    reply.header('content-encoding', 'gzip') // describes a payload that is never sent
    throw new Error('onSend failed reading /srv/app/secret.js')
  }

  @Get() @Header('x-trace', 'kept') get () { return { ok: true } }
  @Get('throws') throws () { throw new BadRequestException('bad') }
}

@Controller('serializing')
class SerializingController {
  @Hook('preSerialization') preSerialization () { throw new Error('preSerialization failed reading /srv/app/secret.js') }
  @Get() get () { return { ok: true } }
}

@Injectable()
class ModuleHooks {
  @Hook('onSend') async onSend (request: { url: string }, reply: unknown, payload: unknown) {
    if (request.url.startsWith('/module-hooked')) throw new Error('module hook secret')
    return payload
  }
}

@Controller('module-hooked')
class ModuleHookedController {
  @Get() get () { return { ok: true } }
}

@Module({ controllers: [LeakController, HookedController, SerializingController, ModuleHookedController], providers: [SendsCircular, ModuleHooks] })
class LeakModule {}

async function setup (t: Parameters<typeof buildApp>[0]) {
  const logs = captureLogs()
  const app = await buildApp(t, LeakModule, { logger: { stream: logs.stream }, requestIdHeader: 'x-request-id' })
  /** One request: its answer, and the error lines logged for it. */
  return async (url: string) => {
    logs.lines.length = 0
    const id = `req-${url.replaceAll('/', '-')}`
    const response = await app.inject({ url, headers: { 'x-request-id': id } })
    const errors = logs.errors()
    for (const line of errors) assert.equal(line.reqId, id, `${url}: the log line carries the request id`)
    const completed = logs.lines.filter((line) => line.msg === 'request completed')
    assert.equal(completed.length, 1, `${url}: the request completes once`)
    return { response, errors, app }
  }
}

test('an exception body the serializer cannot write: the generic 500 and one log line with the cause, never the serializer\'s text', async (t) => {
  const get = await setup(t)
  const cases: Array<[string, RegExp]> = [
    ['/leaks/circular', /circular structure/],
    ['/leaks/to-json', /\/srv\/app\/secret\.js/],
    ['/leaks/filter-circular', /circular structure/]
  ]
  for (const [url, cause] of cases) {
    const { response, errors } = await get(url)
    assert.equal(response.statusCode, 500, url)
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', url)
    assert.deepEqual(response.json(), generic, url)
    assert.equal(errors.length, 1, `${url}: ${JSON.stringify(errors)}`)
    assert.match(errors[0].err!.message, cause, url)
    assert.match(errors[0].msg!, /could not be sent; answered 500/, url)
    assert.deepEqual((await get('/leaks/ok')).response.json(), { ok: true })
  }
})

test('a hook that throws on every payload: the generic 500, once, and one log line', async (t) => {
  const get = await setup(t)
  const cases: Array<[string, RegExp]> = [
    ['/hooked', /onSend failed/],
    ['/hooked/throws', /onSend failed/],
    ['/serializing', /preSerialization failed/],
    ['/module-hooked', /module hook secret/]
  ]
  for (const [url, cause] of cases) {
    const { response, errors } = await get(url)
    assert.equal(response.statusCode, 500, url)
    assert.deepEqual(response.json(), generic, url)
    assert.ok(!response.body.includes('secret'), url)
    assert.equal(errors.length, 1, `${url}: ${JSON.stringify(errors)}`)
    assert.match(errors[0].err!.message, cause, url)
  }
  // The 500 keeps the headers set for the request, not those of the payload that failed.
  const { response } = await get('/hooked')
  assert.equal(response.headers['x-trace'], 'kept')
  assert.equal(response.headers['content-encoding'], undefined)
  assert.equal(response.headers['content-length'], String(JSON.stringify(generic).length))
  assert.deepEqual((await get('/leaks/ok')).response.json(), { ok: true })
})

test('a status Fastify refuses (from an HttpException, a redirect or the reply): the generic 500 and a log line naming the status and where', async (t) => {
  const get = await setup(t)
  for (const status of [999, 99, 600, 404.5, Number.NaN, '404']) {
    badStatus = status
    const { response, errors } = await get('/leaks/status/x')
    assert.equal(response.statusCode, 500, String(status))
    assert.deepEqual(response.json(), generic, String(status))
    assert.equal(errors.length, 1, String(status))
    assert.ok(errors[0].msg!.includes(`status ${typeof status === 'string' ? `string "${status}"` : `number ${status}`} in LeakController.status`), errors[0].msg)
  }
  for (const url of ['/leaks/redirect', '/leaks/reply-code']) {
    const { response, errors } = await get(url)
    assert.equal(response.statusCode, 500, url)
    assert.deepEqual(response.json(), generic, url)
    assert.equal(errors.length, 1, url)
    assert.equal(errors[0].err!.message, 'Called reply with an invalid status code: 999', url)
    assert.match(errors[0].msg!, /^A status Fastify refuses was set on the reply in LeakController\./, url)
  }
})
