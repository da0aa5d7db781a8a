// Runs on tsc output: the example injects FilesService by type.
import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import FormData from 'form-data'
import { buildApp } from '../../examples/uploads/app.js'

async function app (t: TestContext) {
  const instance = await buildApp()
  t.after(() => instance.close())
  await instance.ready()
  return instance
}

function form (url: string, fill: (form: FormData) => void) {
  const body = new FormData()
  fill(body)
  return { method: 'POST' as const, url, payload: body.getBuffer(), headers: body.getHeaders() }
}

test('an uploaded file is stored with its form fields and can be downloaded', async (t) => {
  const server = await app(t)
  const res = await server.inject(form('/api/files', (f) => {
    f.append('description', 'quarterly report')
    f.append('file', Buffer.from('a,b\n1,2\n'), { filename: 'report.csv', contentType: 'text/csv' })
  }))
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), { id: 1, filename: 'report.csv', mimetype: 'text/csv', size: 8, description: 'quarterly report' })
  const download = await server.inject('/api/files/1')
  assert.equal(download.statusCode, 200)
  assert.equal(download.headers['content-type'], 'text/csv')
  assert.equal(download.headers['content-disposition'], 'attachment; filename="report.csv"')
  assert.equal(download.body, 'a,b\n1,2\n')
  assert.equal((await server.inject('/api/files/2')).statusCode, 404)
})

test('several images at once; another type is a 415 from the pipe', async (t) => {
  const server = await app(t)
  const ok = await server.inject(form('/api/files/images', (f) => {
    f.append('images', Buffer.from('png'), { filename: 'a.png', contentType: 'image/png' })
    f.append('images', Buffer.from('jpeg'), { filename: 'b.jpg', contentType: 'image/jpeg' })
  }))
  assert.equal(ok.statusCode, 201)
  assert.deepEqual(ok.json().map((file: { filename: string, size: number }) => [file.filename, file.size]), [['a.png', 3], ['b.jpg', 4]])
  const refused = await server.inject(form('/api/files/images', (f) => {
    f.append('images', Buffer.from('GIF89a'), { filename: 'c.gif', contentType: 'image/gif' })
  }))
  assert.equal(refused.statusCode, 415)
  assert.deepEqual(refused.json(), { statusCode: 415, message: 'c.gif: image/gif is not allowed; send image/png or image/jpeg', error: 'Unsupported Media Type' })
})

test('a missing file is a 400, a file over 64 KiB a 413', async (t) => {
  const server = await app(t)
  const missing = await server.inject(form('/api/files', (f) => f.append('description', 'no file')))
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), { statusCode: 400, message: 'File is required in field "file"', error: 'Bad Request' })
  const big = await server.inject(form('/api/files', (f) => f.append('file', Buffer.alloc(64 * 1024 + 1), { filename: 'big.bin' })))
  assert.equal(big.statusCode, 413)
  assert.equal(big.json().code, 'FST_REQ_FILE_TOO_LARGE')
})
