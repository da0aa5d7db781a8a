import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import * as nest from '@nestjs/common'
import { build } from '../helpers/app.js'

// A NestJS controller returns @nestjs/common's StreamableFile: it is streamed with its headers,
// as the plugin's own would be, not serialized as JSON.

@nest.Controller('nest-files')
class NestFilesController {
  @nest.Get('buffer') buffer () {
    return new nest.StreamableFile(Buffer.from('a,b\n'), { type: 'text/csv', disposition: 'attachment; filename="a.csv"' })
  }

  @nest.Get('stream') stream () { return new nest.StreamableFile(Readable.from(['first,', 'second'])) }

  @nest.Get('async') async later () { return new nest.StreamableFile(Buffer.from('later'), { length: 5 }) }
}

@nest.Module({ controllers: [NestFilesController] })
class NestFilesModule {}

test('@nestjs/common\'s StreamableFile from a NestJS controller is streamed with its type, disposition and length', async (t) => {
  const app = await build(t, NestFilesModule)
  const buffer = await app.inject('/nest-files/buffer')
  assert.equal(buffer.statusCode, 200)
  assert.equal(buffer.body, 'a,b\n')
  assert.equal(buffer.headers['content-type'], 'text/csv')
  assert.equal(buffer.headers['content-disposition'], 'attachment; filename="a.csv"')
  assert.equal(buffer.headers['content-length'], '4')
  const stream = await app.inject('/nest-files/stream')
  assert.equal(stream.body, 'first,second')
  assert.equal(stream.headers['content-type'], 'application/octet-stream')
  assert.equal(stream.headers['transfer-encoding'], 'chunked')
  const later = await app.inject('/nest-files/async')
  assert.equal(later.body, 'later')
  assert.equal(later.headers['content-length'], '5')
})
