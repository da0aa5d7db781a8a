import { CACHE_MANAGER } from '@nestjs/cache-manager'
import { Test } from 'fastify-decorator-plugin/testing'
import { Member } from '../members/member.entity'
import { BooksController } from './books.controller'
import { BooksService, catalogKey } from './books.service'

describe('BooksController', () => {
  const cache = { get: jest.fn(), set: jest.fn(), del: jest.fn(async (_key: string) => true) }
  let controller: BooksController

  beforeEach(async () => {
    cache.del.mockClear()
    const moduleRef = await Test.createTestingModule({
      controllers: [BooksController],
      providers: [BooksService, { provide: CACHE_MANAGER, useValue: cache }]
    }).compile()

    controller = moduleRef.get(BooksController)
  })

  it('counts each read of the catalog', () => {
    expect(controller.catalog()).toEqual({ read: 1, books: [{ id: 1, title: 'Sketch of the Analytical Engine', addedBy: 'ada' }] })
    expect(controller.catalog().read).toBe(2)
  })

  it('adds a book under the member\'s name and drops the cached catalog', async () => {
    const grace = new Member({ id: 2, username: 'grace' })
    expect(await controller.add('Compiler notes', { user: grace })).toEqual({ id: 2, title: 'Compiler notes', addedBy: 'grace' })
    expect(cache.del).toHaveBeenCalledWith(catalogKey)
    expect(controller.catalog().books).toHaveLength(2)
  })
})
