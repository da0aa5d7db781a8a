import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import multipart from '@fastify/multipart'
import {
  decoratorPlugin, Body, Catch, Controller, Module, Post, Req, UploadedFile, APP_FILTER,
  type ExceptionFilter, type UploadedFileInfo
} from '../../plugin/index.js'
import { captureLogs, connections, escapes, listen, sendRaw, until } from './helpers.js'

// Clients that hang up halfway through a multipart upload, over real sockets on 127.0.0.1.
const ABORTS = 60
const boundary = '----upload'

let temporary = ''
let filtered = 0

@Catch()
class CountingFilter implements ExceptionFilter {
  catch () { filtered++ }
}

@Controller('upload')
class UploadController {
  @Post('file') file (@UploadedFile('doc') file: UploadedFileInfo) { return { size: file.buffer.length } }
  @Post('saved') async saved (@Req() request: any) {
    const files = await request.saveRequestFiles({ tmpdir: temporary })
    return { files: files.length }
  }

  @Post('fields') fields (@Body() body: Record<string, unknown>) { return { fields: Object.keys(body) } }
}

@Module({ controllers: [UploadController], providers: [{ provide: APP_FILTER, useClass: CountingFilter }] })
class UploadModule {}

/** Half an upload: the headers promise 1 MB, the file part starts and the body stops there. */
function halfUpload (url: string): string {
  return `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1048576\r\n\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${'x'.repeat(64 * 1024)}`
}

function whole (): { payload: Buffer, headers: Record<string, string> } {
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n--${boundary}--\r\n`
  return { payload: Buffer.from(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

for (const attachFieldsToBody of [false, true]) {
  test(`${ABORTS} uploads aborted halfway (attachFieldsToBody: ${attachFieldsToBody}): no error logged, no filter called, no temporary file or connection left, the server keeps serving`, async (t) => {
    temporary = await mkdtemp(join(tmpdir(), 'fdp-uploads-'))
    t.after(() => rm(temporary, { recursive: true, force: true }))
    filtered = 0
    const logs = captureLogs()
    const app = Fastify({ logger: { level: 'debug', stream: logs.stream } })
    t.after(() => app.close())
    let reading = 0
    app.addHook('preValidation', async () => { reading++ })
    await app.register(multipart, { attachFieldsToBody })
    await app.register(decoratorPlugin, { module: UploadModule })
    const port = await listen(app)
    const escaped = escapes(t)

    const urls = attachFieldsToBody ? ['/upload/fields'] : ['/upload/file', '/upload/saved']
    const sockets: net.Socket[] = []
    for (let i = 0; i < ABORTS; i++) sockets.push(await sendRaw(port, halfUpload(urls[i % urls.length])))
    await until(() => reading === ABORTS, 'every upload to be read')
    // Half the file is in: the saved uploads have their temporary file by now.
    if (!attachFieldsToBody) await until(async () => (await readdir(temporary)).length === ABORTS / 2, 'the temporary files')
    for (const socket of sockets) socket.destroy()
    await until(async () => await connections(app.server) === 0, 'the server to drop the aborted connections')
    await until(async () => (await readdir(temporary)).length === 0, 'the temporary files to be removed')
    await new Promise((resolve) => setTimeout(resolve, 50))

    // saveRequestFiles() logs its own failure and its cleanup's: @fastify/multipart's lines, not the plugin's.
    const own = logs.errors().filter((line) => line.msg !== 'save request file' && line.msg !== 'Could not delete file')
    assert.deepEqual(own.map((line) => [line.msg, line.err?.message]), [])
    const aborted = logs.lines.filter((line) => line.msg === 'The client aborted the request while its body was read; not answered')
    assert.equal(aborted.length, ABORTS, 'one debug line per aborted upload')
    assert.ok(aborted.every((line) => line.level === 20 && line.reqId !== undefined))
    assert.equal(filtered, 0, 'no exception filter is asked to answer a client that is gone')
    assert.deepEqual(escaped, [])

    const next = await app.inject({ method: 'POST', url: urls[0], ...whole() })
    assert.equal(next.statusCode, 201)
    assert.deepEqual(next.json(), attachFieldsToBody ? { fields: ['doc'] } : { size: 5 })
  })
}
