// Type tests for StreamableFile: NestJS's constructor and accessors.
import { Readable } from 'node:stream'
import { StreamableFile, type StreamableFileOptions } from '../../plugin/index.js'

const options: StreamableFileOptions = { type: 'text/csv', disposition: 'attachment; filename="a.csv"', length: 3 }
const fromBuffer = new StreamableFile(Buffer.from('a,b'), options)
const fromBytes = new StreamableFile(new Uint8Array([1]))
const fromStream = new StreamableFile(Readable.from(['x']))
const stream: Readable = fromStream.getStream()
const headers: { type: string, disposition?: string, length?: number } = fromBuffer.getHeaders()
// @ts-expect-error: a string is not a file
void new StreamableFile('text')
// @ts-expect-error: length is a number
void new StreamableFile(Buffer.from(''), { length: '3' })
void fromBytes
void stream
void headers
