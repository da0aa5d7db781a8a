// Runs on tsc output (emitDecoratorMetadata): NestJS controllers reading cookies, sessions and raw
// bodies with @nestjs/common's decorators, services injected by type, on the plugin's testing
// application as a NestJS spec builds it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Body, Controller, Cookies as NestCookies, createParamDecorator, Get, Headers, Injectable, Module, Post, RawBody, Req, Session,
  SignedCookies as NestSignedCookies, UnauthorizedException, type ExecutionContext, type RawBodyRequest
} from '@nestjs/common'
import cookie, { signerFactory } from '@fastify/cookie'
import session from '@fastify/session'
import type { FastifyRequest } from 'fastify'
import { createHmac } from 'node:crypto'
import { FastifyAdapter } from '../../plugin/index.js'
import { Test } from '../../plugin/testing.js'

const secret = 'a secret with minimum length of 32 characters'

// The custom decorator NestJS's documentation writes for cookies.
const Cookie = createParamDecorator((name: string, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<FastifyRequest>().cookies[name])

@Injectable()
class Signatures {
  sign (raw: Buffer) { return createHmac('sha256', secret).update(raw).digest('hex') }
}

@Controller('shop')
class ShopController {
  constructor (private readonly signatures: Signatures) {}

  @Get('prefs')
  prefs (@NestCookies('theme') theme: string | undefined, @Cookie('theme') custom: string | undefined, @NestSignedCookies('uid') uid: string | undefined, @NestCookies() all: Record<string, string>) {
    return { theme: theme ?? null, custom: custom ?? null, uid: uid ?? null, names: Object.keys(all).sort() }
  }

  @Post('cart')
  add (@Session() cart: { items?: string[], get: (key: string) => unknown, set: (key: string, value: unknown) => void }, @Body('item') item: string) {
    const items = [...(cart.get('items') as string[] | undefined ?? []), item]
    cart.set('items', items)
    return { items }
  }

  @Post('webhook')
  webhook (@RawBody() raw: Buffer, @Req() req: RawBodyRequest<FastifyRequest>, @Headers('x-signature') signature: string, @Body() event: unknown) {
    if (this.signatures.sign(raw) !== signature) throw new UnauthorizedException('Invalid signature')
    return { event, same: req.rawBody === raw }
  }
}

@Module({ controllers: [ShopController], providers: [Signatures] })
class ShopModule {}

test('NestJS\'s @Cookies, @SignedCookies, @Session, @RawBody and a createParamDecorator cookie run under rawBody: true', async (t) => {
  const moduleRef = await Test.createTestingModule({ imports: [ShopModule] }).compile()
  const app = moduleRef.createNestApplication(new FastifyAdapter(), { rawBody: true })
  t.after(() => app.close())
  await app.register(cookie, { secret })
  await app.register(session, { secret, cookie: { secure: false } })
  app.useBodyParser('application/json', { bodyLimit: 256 })
  await app.init()

  const uid = signerFactory(secret).sign('42')
  const headers = { cookie: `theme=dark; uid=${encodeURIComponent(uid)}` }
  assert.deepEqual((await app.inject({ url: '/shop/prefs', headers })).json(), { theme: 'dark', custom: 'dark', uid: '42', names: ['theme', 'uid'] })
  // A forged signature gives undefined, as NestJS gives it.
  assert.deepEqual((await app.inject({ url: '/shop/prefs', headers: { cookie: 'uid=42.forged' } })).json(), { theme: null, custom: null, uid: null, names: ['uid'] })

  const first = await app.inject({ method: 'POST', url: '/shop/cart', payload: { item: 'apple' } })
  assert.deepEqual(first.json(), { items: ['apple'] })
  const sid = String(first.headers['set-cookie']).split(';')[0]
  assert.deepEqual((await app.inject({ method: 'POST', url: '/shop/cart', payload: { item: 'pear' }, headers: { cookie: sid } })).json(), { items: ['apple', 'pear'] })

  const payload = '{ "type": "paid" }'
  const signature = createHmac('sha256', secret).update(payload).digest('hex')
  const json = { 'content-type': 'application/json' }
  const ok = await app.inject({ method: 'POST', url: '/shop/webhook', payload, headers: { ...json, 'x-signature': signature } })
  assert.equal(ok.statusCode, 201)
  assert.deepEqual(ok.json(), { event: { type: 'paid' }, same: true })
  assert.equal((await app.inject({ method: 'POST', url: '/shop/webhook', payload, headers: { ...json, 'x-signature': 'x' } })).statusCode, 401)
  const big = await app.inject({ method: 'POST', url: '/shop/webhook', payload: JSON.stringify({ pad: 'x'.repeat(300) }), headers: { ...json, 'x-signature': signature } })
  assert.equal(big.statusCode, 413)
  assert.equal((await app.inject({ method: 'POST', url: '/shop/webhook', payload, headers: { ...json, 'x-signature': signature } })).statusCode, 201)
})

test('a NestJS @Session() without a session plugin fails init() naming the plugins to register', async (t) => {
  const moduleRef = await Test.createTestingModule({ imports: [ShopModule] }).compile()
  const app = moduleRef.createNestApplication(new FastifyAdapter())
  t.after(() => app.close())
  await app.register(cookie, { secret })
  await assert.rejects(app.init(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'FDP_ERR_MISSING_PEER')
    assert.match(error.message, /^ShopController\.add takes @Session\(\), which reads request\.session from @fastify\/session or @fastify\/secure-session/)
    return true
  })
})
