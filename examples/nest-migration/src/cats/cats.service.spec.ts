import { Logger, NotFoundException } from 'fastify-decorator-plugin'
import { Test, type TestingModule } from 'fastify-decorator-plugin/testing'
import { CatsService } from './cats.service.js'

describe('CatsService', () => {
  let service: CatsService

  beforeEach(async () => {
    const module: TestingModule = await Test.createTestingModule({
      providers: [CatsService]
    }).compile()

    service = module.get<CatsService>(CatsService)
  })

  it('starts with no cats', () => {
    expect(service.findAll()).toEqual([])
  })

  it('numbers the cats it adds and logs each one', () => {
    const log = vi.spyOn(Logger.prototype, 'log').mockImplementation(() => {})
    expect(service.create({ name: 'Tom', age: 3, breed: 'Tabby' })).toEqual({ id: 1, name: 'Tom', age: 3, breed: 'Tabby' })
    service.create({ name: 'Mia', age: 1, breed: 'Siamese' })
    expect(service.findAll().map((cat) => cat.name)).toEqual(['Tom', 'Mia'])
    expect(service.findOne(2).breed).toBe('Siamese')
    expect(log).toHaveBeenCalledWith('Added Mia as #2')
    log.mockRestore()
  })

  it('throws NotFoundException for an unknown id', () => {
    expect(() => service.findOne(7)).toThrow(NotFoundException)
    expect(() => service.remove(7)).toThrow('Cat #7 not found')
  })
})
