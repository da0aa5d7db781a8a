import request from 'supertest'
import { FastifyAdapter, type NestFastifyApplication } from 'fastify-decorator-plugin'
import { Test } from 'fastify-decorator-plugin/testing'
import { AppModule } from '../src/app.module'

describe('Members, tokens and books (e2e)', () => {
  let app: NestFastifyApplication

  beforeEach(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
    app.useLogger(false)
    await app.init()
    await app.getHttpAdapter().getInstance().ready()
  })

  afterEach(async () => {
    await app.close()
  })

  async function tokenOf (login: string, secret: string): Promise<string> {
    const response = await request(app.getHttpServer()).post('/auth/login').send({ login, secret }).expect(200)
    return response.body.access_token
  }

  it('POST /auth/login answers a bearer token for the right secret only', async () => {
    const response = await request(app.getHttpServer()).post('/auth/login').send({ login: 'ada', secret: 'engine-1843' }).expect(200)
    expect(response.body).toEqual({ token_type: 'Bearer', access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) })

    await request(app.getHttpServer())
      .post('/auth/login')
      .send({ login: 'ada', secret: 'cobol-1959' })
      .expect(401)
      .expect({ message: 'Wrong login or secret', error: 'Unauthorized', statusCode: 401 })
    // passport-local fails before validate() when a field is missing.
    await request(app.getHttpServer()).post('/auth/login').send({ login: 'ada' }).expect(401).expect({ message: 'Unauthorized', statusCode: 401 })
  })

  it('GET /auth/me needs a valid token and shows the member\'s own fields, never the hash', async () => {
    await request(app.getHttpServer()).get('/auth/me').expect(401)
    await request(app.getHttpServer()).get('/auth/me').set('authorization', 'Bearer not.a.token').expect(401)

    const token = await tokenOf('grace', 'cobol-1959')
    const response = await request(app.getHttpServer()).get('/auth/me').set('authorization', `Bearer ${token}`).expect(200)
    expect(response.body).toEqual({ id: 2, username: 'grace', email: 'grace@example.com', handle: '@grace' })
  })

  it('GET /members/:id is serialized without the self-only fields', async () => {
    const response = await request(app.getHttpServer()).get('/members/1').expect(200)
    expect(response.body).toEqual({ id: 1, username: 'ada', handle: '@ada' })
    await request(app.getHttpServer()).get('/members/9').expect(404)
  })

  it('GET /books is cached until a signed-in member adds a book', async () => {
    const first = await request(app.getHttpServer()).get('/books').expect(200)
    expect(first.body.read).toBe(1)
    const again = await request(app.getHttpServer()).get('/books').expect(200)
    expect(again.body).toEqual(first.body)

    await request(app.getHttpServer()).post('/books').send({ title: 'Notes on compilers' }).expect(401)
    const token = await tokenOf('ada', 'engine-1843')
    const added = await request(app.getHttpServer()).post('/books').set('authorization', `Bearer ${token}`).send({ title: 'Notes on compilers' }).expect(201)
    expect(added.body).toEqual({ id: 2, title: 'Notes on compilers', addedBy: 'ada' })

    const after = await request(app.getHttpServer()).get('/books').expect(200)
    expect(after.body.read).toBe(2)
    expect(after.body.books.map((book: { title: string }) => book.title)).toEqual(['Sketch of the Analytical Engine', 'Notes on compilers'])
  })

  it('inject() goes through the same guards', async () => {
    const token = await tokenOf('ada', 'engine-1843')
    const response = await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ id: 1, username: 'ada', email: 'ada@example.com', handle: '@ada' })
  })
})
