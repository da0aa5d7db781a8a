import { Body, Controller, Get, Post, Request, UseGuards, UseInterceptors } from 'fastify-decorator-plugin'
import { CacheInterceptor, CacheKey, CacheTTL } from '@nestjs/cache-manager'
import { AuthGuard } from '@nestjs/passport'
import type { Member } from '../members/member.entity'
import { BooksService, catalogKey } from './books.service'

@Controller('books')
@UseInterceptors(CacheInterceptor)
export class BooksController {
  constructor (private readonly books: BooksService) {}

  @Get()
  @CacheKey(catalogKey)
  @CacheTTL(60_000)
  catalog () {
    return this.books.catalog()
  }

  // Not cached (CacheInterceptor caches GET only); adding a book clears the catalog's entry.
  @Post()
  @UseGuards(AuthGuard('jwt'))
  add (@Body('title') title: string, @Request() req: { user: Member }) {
    return this.books.add(title, req.user.username)
  }
}
