import request from 'supertest'
import { ValidationPipe } from 'fastify-decorator-plugin'
import { FastifyAdapter, type NestFastifyApplication } from 'fastify-decorator-plugin'
import { Test, type TestingModule } from 'fastify-decorator-plugin/testing'
import { AppModule } from '../src/app.module.js'
import { CatsService } from '../src/cats/cats.service.js'
import { RolesGuard } from '../src/common/roles.guard.js'

const tom = { name: 'Tom', age: 3, breed: 'Tabby' }
const admin = { 'x-roles': 'viewer, admin' }

describe('Cats (e2e)', () => {
  let app: NestFastifyApplication

  beforeEach(async () => {
    const moduleFixture: TestingModule = await Test.createTestingModule({
      imports: [AppModule]
    }).compile()

    app = moduleFixture.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
    app.useGlobalPipes(new ValidationPipe({ whitelist: true }))
    app.useLogger(false)
    await app.init()
    await app.getHttpAdapter().getInstance().ready()
  })

  afterEach(async () => {
    await app.close()
  })

  it('GET / answers without the cats middleware', async () => {
    const response = await request(app.getHttpServer()).get('/').expect(200)
    expect(response.body).toEqual({ status: 'ok' })
    expect(response.headers['x-request-id']).toBeUndefined()
  })

  it('POST /cats needs the admin role', () => {
    return request(app.getHttpServer())
      .post('/cats')
      .set('x-roles', 'viewer')
      .send(tom)
      .expect(403)
      .expect({ statusCode: 403, message: 'Forbidden resource', path: '/cats' })
  })

  it('POST /cats validates the body and keeps only the declared fields', async () => {
    const invalid = await request(app.getHttpServer()).post('/cats').set(admin).send({ name: '', age: 3.5 }).expect(400)
    expect(invalid.body).toEqual({
      statusCode: 400,
      message: ['name must be longer than or equal to 1 characters', 'age must be an integer number', 'breed must be a string'],
      path: '/cats'
    })

    const created = await request(app.getHttpServer()).post('/cats').set(admin).send({ ...tom, owner: 'me' }).expect(201)
    expect(created.body).toEqual({ data: { id: 1, ...tom } })
    expect(created.headers['x-request-id']).toBe('2')
  })

  it('GET /cats/:id parses the id and answers 404 for an unknown cat', async () => {
    await request(app.getHttpServer())
      .get('/cats/abc')
      .expect(400)
      .expect({ statusCode: 400, message: 'Validation failed (numeric string is expected)', path: '/cats/abc' })
    await request(app.getHttpServer())
      .get('/cats/1')
      .expect(404)
      .expect({ statusCode: 404, message: 'Cat #1 not found', path: '/cats/1' })
  })

  it('DELETE /cats/:id answers 204 with no body', async () => {
    await request(app.getHttpServer()).post('/cats').set(admin).send(tom).expect(201)
    const response = await request(app.getHttpServer()).delete('/cats/1').set(admin).expect(204)
    expect(response.text).toBe('')
    await request(app.getHttpServer()).get('/cats').expect(200).expect({ data: [] })
  })

  it('inject() reaches the same routes', async () => {
    const response = await app.inject({ method: 'GET', url: '/cats' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: [] })
    expect(response.headers['x-request-id']).toBe('1')
  })
})

describe('Cats (e2e) with a fake service and an open guard', () => {
  let app: NestFastifyApplication
  const catsService = {
    findAll: () => [{ id: 5, name: 'Test cat', age: 1, breed: 'Mock' }],
    remove: vi.fn()
  }

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule]
    })
      .overrideProvider(CatsService)
      .useValue(catsService)
      .overrideGuard(RolesGuard)
      .useValue({ canActivate: () => true })
      .compile()

    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())
    app.useLogger(false)
    await app.init()
    await app.getHttpAdapter().getInstance().ready()
  })

  afterAll(async () => {
    await app.close()
  })

  it('GET /cats answers what the fake service has', () => {
    return request(app.getHttpServer())
      .get('/cats')
      .expect(200)
      .expect({ data: catsService.findAll() })
  })

  it('DELETE /cats/:id needs no role and gets a number', async () => {
    await request(app.getHttpServer()).delete('/cats/5').expect(204)
    expect(catsService.remove).toHaveBeenCalledWith(5)
  })
})
