import { Module } from 'fastify-decorator-plugin'
import { CacheModule } from '@nestjs/cache-manager'
import { BooksController } from './books.controller'
import { BooksService } from './books.service'

@Module({
  imports: [CacheModule.register({ ttl: 30_000 })],
  controllers: [BooksController],
  providers: [BooksService]
})
export class BooksModule {}
