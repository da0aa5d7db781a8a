// Runs on tsc output: HttpStatus, StreamableFile and @HostParam with decorator metadata emitted.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { Controller, Get, HostParam, HttpCode, HttpStatus, Injectable, Module, StreamableFile, ValidationPipe } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

@Injectable()
class Reports {
  csv (tenant: string) { return `tenant\n${tenant}\n` }
}

@Controller({ path: 'reports', host: ':tenant.example.com' })
class ReportsController {
  constructor (private readonly reports: Reports) {}

  @Get('latest.csv') @HttpCode(HttpStatus.OK)
  latest (@HostParam('tenant') tenant: string) {
    return new StreamableFile(Buffer.from(this.reports.csv(tenant)), { type: 'text/csv', disposition: 'attachment; filename="latest.csv"' })
  }

  @Get('log')
  async log (@HostParam() hosts: Record<string, string>) {
    return new StreamableFile(Readable.from([`host ${hosts.tenant}`]), { type: 'text/plain' })
  }
}

@Module({ controllers: [ReportsController], providers: [Reports] })
class AppModule {}

test('a host-bound controller streams a StreamableFile built from its host parameter', async (t) => {
  // A global ValidationPipe leaves host parameters alone, as NestJS does.
  const app = await build(t, AppModule, { globalPipes: [new ValidationPipe({ transform: true })] })
  const csv = await app.inject({ url: '/reports/latest.csv', headers: { host: 'acme.example.com' } })
  assert.equal(csv.statusCode, HttpStatus.OK)
  assert.equal(csv.body, 'tenant\nacme\n')
  assert.equal(csv.headers['content-type'], 'text/csv')
  assert.equal(csv.headers['content-disposition'], 'attachment; filename="latest.csv"')
  assert.equal(csv.headers['content-length'], '12')

  const log = await app.inject({ url: '/reports/log', headers: { host: 'globex.example.com:3000' } })
  assert.equal(log.body, 'host globex')
  assert.equal(log.headers['content-type'], 'text/plain')
  assert.equal((await app.inject({ url: '/reports/log', headers: { host: 'example.com' } })).statusCode, HttpStatus.NOT_FOUND)
})
