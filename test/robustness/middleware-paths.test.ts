import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyServerOptions } from 'fastify'
import {
  decoratorPlugin, Controller, Get, Module, Param, Post, Req, RequestMethod, type MiddlewareConsumer, type NestModule, type Request
} from '../../plugin/index.js'
import { buildApp, listen } from './helpers.js'

// An authentication middleware on paths that are one value of a route parameter or wildcard:
// whatever spelling of the URL Fastify routes to the handler, the middleware decides.

const marked = (request: Request) => (request.raw as unknown as { checked?: boolean }).checked === true

function deny (req: IncomingMessage & { checked?: boolean }, res: ServerResponse, next: () => void): void {
  req.checked = true
  if (req.headers.authorization === 'yes') return next()
  res.statusCode = 401
  res.end('denied')
}

@Controller('cats')
class CatsController {
  @Get(':id') one (@Param('id') id: string, @Req() request: Request) { return { id, checked: marked(request) } }
  @Post(':id') update (@Param('id') id: string, @Req() request: Request) { return { id, checked: marked(request) } }
  @Get(':id/toys/:toy') toy (@Param('id') id: string, @Param('toy') toy: string, @Req() request: Request) { return { id, toy, checked: marked(request) } }
}

@Controller('files')
class FilesController {
  @Get('*') file (@Param('*') rest: string, @Req() request: Request) { return { rest, checked: marked(request) } }
}

@Controller('img')
class ImagesController {
  @Get(':name.:ext') image (@Param('name') name: string, @Req() request: Request) { return { name, checked: marked(request) } }
}

@Module({ controllers: [CatsController, FilesController, ImagesController] })
class AppModule implements NestModule {
  configure (consumer: MiddlewareConsumer) {
    consumer.apply(deny).forRoutes(
      'cats/new',
      { path: 'cats/admin', method: RequestMethod.GET },
      'cats/:id/toys/secret',
      'files/private/*',
      'files/:dir/keys',
      'files/logs/(.*)',
      'img/logo.png'
    )
  }
}

/** Sends one raw request line, as a client would spell it, and reads the answer. */
function send (port: number, method: string, target: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)
    })
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => { text += chunk })
    socket.on('error', reject)
    socket.on('close', () => {
      const status = Number(text.slice(9, 12))
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    })
  })
}

// Each spelling, under the router options that make Fastify route it, with what it must reach.
const routerCases: Array<{ options: FastifyServerOptions, method?: string, targets: string[] }> = [
  { options: {}, targets: ['/cats/new', '/cats/new#x', '/cats/new?x=1', '/cats/new?x=1#y', '/cats/%6Eew', '/cats/%6e%65%77', '/cats/new#/../other'] },
  { options: {}, method: 'HEAD', targets: ['/cats/new', '/cats/new#x', '/cats/admin'] },
  { options: {}, method: 'POST', targets: ['/cats/new', '/cats/new#x', '/cats/%6Eew'] },
  { options: { routerOptions: { ignoreDuplicateSlashes: true } }, targets: ['//cats//new', '/cats//new', '//cats/new#x', '///cats///new///toys///secret'] },
  { options: { routerOptions: { ignoreTrailingSlash: true } }, targets: ['/cats/new/', '/cats/new/?x', '/cats/new/#x', '/cats/admin/'] },
  { options: { routerOptions: { caseSensitive: false } }, targets: ['/CATS/new', '/Cats/NEW', '/cats/New#x', '/cAtS/%4Eew', '/cats/ADMIN'] },
  { options: { useSemicolonDelimiter: true }, targets: ['/cats/new;x=1', '/cats/admin;jsessionid=1'] },
  {
    options: {},
    targets: [
      '/cats/1/toys/secret', '/cats/%31/toys/secret#x', '/cats/1/toys/SECRET',
      '/files/private/a', '/files/private/a/b', '/files/private%2Fa', '/files/%70rivate/a', '/files/x/keys', '/files/x%2Fkeys', '/files/X/KEYS#y', '/files/logs/a', '/files/logs%2Fa%2Fb',
      '/img/logo.png', '/img/logo.png#x', '/img/%6Cogo.png'
    ]
  }
]

test('middleware on one value of a parameter runs for every spelling Fastify routes to that value', async (t) => {
  for (const { options, method = 'GET', targets } of routerCases) {
    const app = await buildApp(t, AppModule, options)
    const port = await listen(app)
    for (const target of targets) {
      const denied = await send(port, method, target)
      assert.equal(denied.status, 401, `${method} ${target} with ${JSON.stringify(options)} reached the handler without the middleware: ${denied.body}`)
    }
    await app.close()
  }
})

test('the same middleware leaves other values alone, judged by the value the handler gets', async (t) => {
  const app = await buildApp(t, AppModule, { routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true } })
  const port = await listen(app)
  const open: Array<[string, string, unknown]> = [
    ['GET', '/cats/old', { id: 'old', checked: false }],
    ['GET', '/cats/newer', { id: 'newer', checked: false }],
    // `%2F` is part of the value: the handler answers `new/x`, not `new`.
    ['GET', '/cats/new%2Fx', { id: 'new/x', checked: false }],
    ['GET', '/cats/new%23x', { id: 'new#x', checked: false }],
    ['POST', '/cats/admin', { id: 'admin', checked: false }],
    ['GET', '/cats/1/toys/ball', { id: '1', toy: 'ball', checked: false }],
    ['GET', '/files/public/a', { rest: 'public/a', checked: false }],
    ['GET', '/files/private', { rest: 'private', checked: false }],
    ['GET', '/img/logo.svg', { name: 'logo', checked: false }]
  ]
  for (const [method, target, body] of open) {
    const answer = await send(port, method, target)
    assert.deepEqual([answer.status, JSON.parse(answer.body)], [method === 'POST' ? 201 : 200, body], `${method} ${target}`)
  }
})

test('plain routes of the app never run the plugin\'s middleware, whatever the pattern', async (t) => {
  @Controller('cats')
  class Cats { @Get(':id') one (@Req() request: Request) { return { checked: marked(request) } } }
  @Module({ controllers: [Cats] })
  class EverywhereModule implements NestModule {
    configure (consumer: MiddlewareConsumer) { consumer.apply(deny).forRoutes('(.*)') }
  }
  const app = Fastify()
  t.after(() => app.close())
  app.get('/plain/:id', async (request) => ({ checked: (request.raw as { checked?: boolean }).checked === true }))
  await app.register(decoratorPlugin, { module: EverywhereModule })
  const port = await listen(app)
  assert.equal((await send(port, 'GET', '/cats/new')).status, 401)
  const plain = await send(port, 'GET', '/plain/new#x')
  assert.deepEqual([plain.status, JSON.parse(plain.body)], [200, { checked: false }])
})
