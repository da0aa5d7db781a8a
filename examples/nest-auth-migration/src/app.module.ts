import { ClassSerializerInterceptor, Module } from 'fastify-decorator-plugin'
import { APP_INTERCEPTOR } from 'fastify-decorator-plugin'
import { AuthModule } from './auth/auth.module'
import { BooksModule } from './books/books.module'
import { MembersModule } from './members/members.module'

@Module({
  imports: [MembersModule, AuthModule, BooksModule],
  // Every answer goes through class-transformer: @Exclude() and @Expose() apply app-wide.
  providers: [{ provide: APP_INTERCEPTOR, useClass: ClassSerializerInterceptor }]
})
export class AppModule {}
