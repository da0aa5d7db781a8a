import { Inject, Injectable } from 'fastify-decorator-plugin'
import { CACHE_MANAGER } from '@nestjs/cache-manager'
import type { Cache } from 'cache-manager'
import type { Book } from './book.entity'

export const catalogKey = 'books:catalog'

@Injectable()
export class BooksService {
  private readonly books: Book[] = [{ id: 1, title: 'Sketch of the Analytical Engine', addedBy: 'ada' }]
  // How many times the catalog was actually read: the cache keeps this number down.
  private reads = 0

  constructor (@Inject(CACHE_MANAGER) private readonly cache: Cache) {}

  catalog (): { read: number, books: Book[] } {
    this.reads++
    return { read: this.reads, books: [...this.books] }
  }

  async add (title: string, addedBy: string): Promise<Book> {
    const book = { id: this.books.length + 1, title, addedBy }
    this.books.push(book)
    await this.cache.del(catalogKey)
    return book
  }
}
