import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import multipart from '@fastify/multipart'
import FormData from 'form-data'
import {
  decoratorPlugin, Module, Controller, Post, Body, UploadedFile, UploadedFiles,
  type PipeTransform, type UploadedFileInfo
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const describeFile = (file: UploadedFileInfo | undefined) => file === undefined
  ? null
  : { fieldname: file.fieldname, filename: file.filename, encoding: file.encoding, mimetype: file.mimetype, content: file.buffer.toString(), isBuffer: Buffer.isBuffer(file.buffer) }

class Size implements PipeTransform { transform (file: UploadedFileInfo) { return file.buffer.length } }

@Controller('upload')
class UploadController {
  @Post('avatar')
  avatar (@UploadedFile('avatar') file: UploadedFileInfo, @Body() body: unknown) {
    return { file: describeFile(file), body }
  }

  @Post('any')
  any (@UploadedFile() file: UploadedFileInfo) { return describeFile(file) }

  @Post('many')
  many (@UploadedFiles() files: UploadedFileInfo[], @UploadedFiles({ field: 'photos', required: false }) photos: UploadedFileInfo[]) {
    return { all: files.map((file) => `${file.fieldname}:${file.filename}`), photos: photos.map((file) => file.filename) }
  }

  @Post('optional')
  optional (@UploadedFile({ field: 'doc', required: false }) file: UploadedFileInfo | undefined, @Body('note') note: string) {
    return { file: describeFile(file), note }
  }

  @Post('size')
  size (@UploadedFile('avatar', Size) size: number) { return { size } }
}

@Module({ controllers: [UploadController] })
class UploadModule {}

function form (build: (form: FormData) => void) {
  const body = new FormData()
  build(body)
  return { method: 'POST' as const, payload: body.getBuffer(), headers: body.getHeaders() }
}

const withMultipart = (options = {}) => (app: any) => app.register(multipart, options)

test('@UploadedFile(field) gives the file with its metadata; other fields are the body', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart())
  const res = await app.inject({
    ...form((f) => {
      f.append('name', 'Tom')
      f.append('avatar', Buffer.from('PNGDATA'), { filename: 'tom.png', contentType: 'image/png' })
      f.append('tag', 'a')
      f.append('tag', 'b')
    }),
    url: '/upload/avatar'
  })
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), {
    file: { fieldname: 'avatar', filename: 'tom.png', encoding: '7bit', mimetype: 'image/png', content: 'PNGDATA', isBuffer: true },
    body: { name: 'Tom', tag: ['a', 'b'] }
  })
})

test('@UploadedFile() without a field takes the first file; @UploadedFiles() takes all or one field\'s', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart())
  const files = (f: FormData) => {
    f.append('doc', Buffer.from('one'), { filename: 'one.txt', contentType: 'text/plain' })
    f.append('photos', Buffer.from('two'), { filename: 'two.jpg', contentType: 'image/jpeg' })
    f.append('photos', Buffer.from('three'), { filename: 'three.jpg', contentType: 'image/jpeg' })
  }
  const any = await app.inject({ ...form(files), url: '/upload/any' })
  assert.deepEqual(any.json(), { fieldname: 'doc', filename: 'one.txt', encoding: '7bit', mimetype: 'text/plain', content: 'one', isBuffer: true })
  const many = await app.inject({ ...form(files), url: '/upload/many' })
  assert.deepEqual(many.json(), { all: ['doc:one.txt', 'photos:two.jpg', 'photos:three.jpg'], photos: ['two.jpg', 'three.jpg'] })
})

test('a missing required file is a 400 with a NestJS-style body; required: false gives undefined', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart())
  const missing = await app.inject({ ...form((f) => f.append('name', 'Tom')), url: '/upload/avatar' })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), { statusCode: 400, message: 'File is required in field "avatar"', error: 'Bad Request' })
  const wrongField = await app.inject({ ...form((f) => f.append('other', Buffer.from('x'), { filename: 'x.txt' })), url: '/upload/avatar' })
  assert.equal(wrongField.statusCode, 400)
  const none = await app.inject({ ...form((f) => f.append('name', 'x')), url: '/upload/many' })
  assert.equal(none.statusCode, 400)
  assert.deepEqual(none.json(), { statusCode: 400, message: 'At least one file is required', error: 'Bad Request' })
  const json = await app.inject({ method: 'POST', url: '/upload/any', payload: { a: 1 } })
  assert.equal(json.statusCode, 400)
  assert.deepEqual(json.json(), { statusCode: 400, message: 'File is required', error: 'Bad Request' })
  const optional = await app.inject({ ...form((f) => f.append('note', 'hi')), url: '/upload/optional' })
  assert.equal(optional.statusCode, 201)
  assert.deepEqual(optional.json(), { file: null, note: 'hi' })
})

test('a file over multipart\'s fileSize limit is a 413 in Fastify\'s format, and the server keeps serving', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart({ limits: { fileSize: 8 } }))
  const res = await app.inject({ ...form((f) => f.append('avatar', Buffer.alloc(64, 1), { filename: 'big.bin' })), url: '/upload/avatar' })
  assert.equal(res.statusCode, 413)
  assert.deepEqual(res.json(), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE', error: 'Payload Too Large', message: 'request file too large' })
  const ok = await app.inject({ ...form((f) => f.append('avatar', Buffer.from('small'), { filename: 's.bin' })), url: '/upload/avatar' })
  assert.equal(ok.statusCode, 201)
  assert.equal(ok.json().file.content, 'small')
})

test('pipes given to @UploadedFile() receive the file', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart())
  const res = await app.inject({ ...form((f) => f.append('avatar', Buffer.from('12345'), { filename: 'a.bin' })), url: '/upload/size' })
  assert.deepEqual(res.json(), { size: 5 })
})

test('@fastify/multipart listed in a module\'s plugins serves that module only', async (t) => {
  @Module({ controllers: [UploadController], plugins: [[multipart, { limits: { fileSize: 100 } }]] })
  class WithPluginModule {}
  const app = await build(t, WithPluginModule, {}, (app) => app.post('/plain', async () => 'plain'))
  const res = await app.inject({ ...form((f) => f.append('avatar', Buffer.from('x'), { filename: 'x.png', contentType: 'image/png' })), url: '/upload/any' })
  assert.equal(res.statusCode, 201)
  assert.equal(res.json().content, 'x')
  const plain = await app.inject({ ...form((f) => f.append('a', 'b')), url: '/plain' })
  assert.equal(plain.statusCode, 415)
})

test('attachFieldsToBody: true works too', async (t) => {
  const app = await build(t, UploadModule, {}, withMultipart({ attachFieldsToBody: true }))
  const res = await app.inject({ ...form((f) => f.append('avatar', Buffer.from('attached'), { filename: 'a.txt', contentType: 'text/plain' })), url: '/upload/any' })
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), { fieldname: 'avatar', filename: 'a.txt', encoding: '7bit', mimetype: 'text/plain', content: 'attached', isBuffer: true })
})

test('without @fastify/multipart, registration fails naming the handler and the fix', async () => {
  const app = Fastify()
  await assert.rejects(async () => { await app.register(decoratorPlugin, { module: UploadModule }).ready() }, (error: any) => {
    assert.equal(error.code, 'FDP_ERR_MISSING_PEER')
    assert.match(error.message, /^UploadController\.avatar takes @UploadedFile\(\)\/@UploadedFiles\(\), which read files through @fastify\/multipart, but no @fastify\/multipart is registered/)
    assert.match(error.message, /list it in UploadModule's plugins/)
    return true
  })
  await app.close()
})

test('@UploadedFile() rejects bad arguments when the class is declared', () => {
  assert.throws(() => UploadedFile(42 as any), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, /@UploadedFile\(\) takes a field name or \{ field, required \}, then pipes; given number 42\./)
    return true
  })
  assert.throws(() => UploadedFiles({ field: 3 as any }), /@UploadedFiles\(\): "field" must be a string, given number 3\./)
  assert.throws(() => UploadedFile('a', {} as any), /@UploadedFile\(\): every pipe needs a transform\(\) method/)
})
