import { Test, type TestingModule } from 'fastify-decorator-plugin/testing'
import { CatsController } from './cats.controller.js'
import { CatsService } from './cats.service.js'
import type { Cat } from './interfaces/cat.interface.js'

describe('CatsController', () => {
  let catsController: CatsController
  let catsService: CatsService

  beforeEach(async () => {
    const moduleRef: TestingModule = await Test.createTestingModule({
      controllers: [CatsController],
      providers: [CatsService]
    }).compile()

    catsController = moduleRef.get(CatsController)
    catsService = moduleRef.get(CatsService)
  })

  it('is built with the module\'s CatsService', () => {
    vi.spyOn(catsService, 'create').mockImplementation((dto) => ({ id: 9, ...dto }))
    expect(catsController.create({ name: 'Luna', age: 2, breed: 'Persian' })).toEqual({ id: 9, name: 'Luna', age: 2, breed: 'Persian' })
  })

  it('findAll returns the service\'s cats', () => {
    const cats: Cat[] = [{ id: 4, name: 'Felix', age: 6, breed: 'Tuxedo' }]
    vi.spyOn(catsService, 'findAll').mockReturnValue(cats)
    expect(catsController.findAll()).toBe(cats)
  })

  it('remove deletes the cat from the service', () => {
    catsService.create({ name: 'Oscar', age: 5, breed: 'Maine Coon' })
    catsController.remove(1)
    expect(catsService.findAll()).toEqual([])
  })
})
