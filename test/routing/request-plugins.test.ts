// @Cookies(), @SignedCookies() and @Session() read what @fastify/cookie and the session plugins
// put on the request; without the plugin, registration fails naming it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import secureSession from '@fastify/secure-session'
import { Controller, Cookies, Get, Module, ParseIntPipe, Post, Session, SignedCookies } from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

const secret = 'a secret of at least thirty-two characters'

@Controller('prefs')
class PrefsController {
  @Get('all') all (@Cookies() cookies: Record<string, string>) { return cookies }
  @Get('theme') theme (@Cookies('theme') theme?: string) { return { theme: theme ?? null } }
  @Get('size') size (@Cookies('size', ParseIntPipe) size: number) { return { size, type: typeof size } }
  @Get('proto') proto (@Cookies('constructor') value?: string) { return { value: value ?? null } }
  @Get('signed') signed (@SignedCookies() cookies: Record<string, string>) { return { ...cookies } }
  @Get('uid') uid (@SignedCookies('uid') uid?: string) { return { uid: uid ?? null } }
}

@Module({ controllers: [PrefsController] })
class PrefsModule {}

test('@Cookies() gives the cookies @fastify/cookie parsed, all or one by name, through pipes', async (t) => {
  const app = await build(t, PrefsModule, {}, (app) => app.register(cookie, { secret }))
  const headers = { cookie: 'theme=dark; size=12' }
  assert.deepEqual((await app.inject({ url: '/prefs/all', headers })).json(), { theme: 'dark', size: '12' })
  assert.deepEqual((await app.inject({ url: '/prefs/theme', headers })).json(), { theme: 'dark' })
  assert.deepEqual((await app.inject({ url: '/prefs/theme' })).json(), { theme: null })
  assert.deepEqual((await app.inject({ url: '/prefs/size', headers })).json(), { size: 12, type: 'number' })
  const refused = await app.inject({ url: '/prefs/size', headers: { cookie: 'size=big' } })
  assert.equal(refused.statusCode, 400)
  assert.deepEqual(refused.json(), { statusCode: 400, message: 'Validation failed (numeric string is expected)', error: 'Bad Request' })
  // Only the cookies sent: no inherited member of the object answers for a name.
  assert.deepEqual((await app.inject({ url: '/prefs/proto', headers })).json(), { value: null })
})

test('@SignedCookies() gives the verified cookies unsigned; a forged or unsigned one is left out', async (t) => {
  const app = await build(t, PrefsModule, {}, (app) => app.register(cookie, { secret }))
  const uid = app.signCookie('42')
  const forged = uid.replace(/^42/, '43')
  const headers = { cookie: `uid=${uid}; theme=dark; other=${encodeURIComponent(forged)}` }
  assert.deepEqual((await app.inject({ url: '/prefs/signed', headers })).json(), { uid: '42' })
  assert.deepEqual((await app.inject({ url: '/prefs/uid', headers })).json(), { uid: '42' })
  assert.deepEqual((await app.inject({ url: '/prefs/uid', headers: { cookie: `uid=${encodeURIComponent(forged)}` } })).json(), { uid: null })
  assert.deepEqual((await app.inject({ url: '/prefs/uid', headers: { cookie: 'uid=42' } })).json(), { uid: null })
  assert.deepEqual((await app.inject({ url: '/prefs/signed' })).json(), {})
})

test('without @fastify/cookie, registration fails naming it; with it but no secret, @SignedCookies() says so', async () => {
  const error = await registrationError({ module: PrefsModule })
  assert.equal(error.code, 'FDP_ERR_MISSING_PEER')
  assert.match(error.message, /^PrefsController\.all takes @Cookies\(\), which reads request\.cookies from @fastify\/cookie, but none is registered where its routes can see it\. Register it on the app before decoratorPlugin \(app\.register\(cookie\)\) or list it in PrefsModule's plugins/)
  const unsigned = Fastify()
  await unsigned.register(cookie)
  const signed = await registrationError({ module: PrefsModule }, unsigned)
  assert.match(signed.message, /PrefsController\.signed takes @SignedCookies\(\), which reads request\.unsignCookie from @fastify\/cookie with a secret/)
})

test('a cookie plugin listed in the module\'s plugins is enough', async (t) => {
  @Module({ controllers: [PrefsController], plugins: [[cookie, { secret }]] })
  class ScopedModule {}
  const app = await build(t, ScopedModule)
  assert.deepEqual((await app.inject({ url: '/prefs/theme', headers: { cookie: 'theme=light' } })).json(), { theme: 'light' })
})

@Controller('cart')
class CartController {
  @Post('add') add (@Session() session: { get: (k: string) => unknown, set: (k: string, v: unknown) => void }) {
    const items = ((session.get('items') as string[] | undefined) ?? []).concat('apple')
    session.set('items', items)
    return { items }
  }

  @Get() list (@Session() session: { get: (k: string) => unknown }) { return { items: session.get('items') ?? [] } }
}

@Module({ controllers: [CartController] })
class CartModule {}

function sessionCookie (setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie
  return first!.split(';')[0]
}

test('@Session() gives @fastify/session\'s session, kept across requests', async (t) => {
  const app = await build(t, CartModule, {}, async (app) => {
    await app.register(cookie)
    await app.register(session, { secret, cookie: { secure: false } })
  })
  const first = await app.inject({ method: 'POST', url: '/cart/add' })
  assert.deepEqual(first.json(), { items: ['apple'] })
  const headers = { cookie: sessionCookie(first.headers['set-cookie']) }
  assert.deepEqual((await app.inject({ method: 'POST', url: '/cart/add', headers })).json(), { items: ['apple', 'apple'] })
  assert.deepEqual((await app.inject({ url: '/cart', headers })).json(), { items: ['apple', 'apple'] })
  assert.deepEqual((await app.inject({ url: '/cart' })).json(), { items: [] })
})

test('@Session() gives @fastify/secure-session\'s session too', async (t) => {
  const app = await build(t, CartModule, {}, (app) => app.register(secureSession, { secret, salt: 'mq9hDxBVDbspDR6n', cookie: { path: '/' } }))
  const first = await app.inject({ method: 'POST', url: '/cart/add' })
  const headers = { cookie: sessionCookie(first.headers['set-cookie']) }
  assert.deepEqual((await app.inject({ url: '/cart', headers })).json(), { items: ['apple'] })
})

test('without a session plugin, registration fails naming both', async () => {
  assert.match((await registrationError({ module: CartModule })).message, /CartController\.add takes @Session\(\), which reads request\.session from @fastify\/session or @fastify\/secure-session, but none is registered/)
})

test('global pipes run on @Cookies() and @SignedCookies() (type custom), not on @Session()', async (t) => {
  const seen: string[] = []
  const recorder = { transform: (value: unknown, { type, data }: { type: string, data?: string }) => { seen.push(`${type}:${data ?? ''}`); return value } }
  @Controller('mixed')
  class MixedController {
    @Get() get (@Cookies('a') a: string, @SignedCookies() signed: object, @Session() session: unknown) { return { a, session: session !== undefined } }
  }
  @Module({ controllers: [MixedController] })
  class MixedModule {}
  const app = await build(t, MixedModule, { globalPipes: [recorder] }, async (app) => {
    await app.register(cookie, { secret })
    await app.register(session, { secret, cookie: { secure: false } })
  })
  assert.deepEqual((await app.inject({ url: '/mixed', headers: { cookie: 'a=1' } })).json(), { a: '1', session: true })
  assert.deepEqual(seen.sort(), ['custom:', 'custom:a'])
})
