import { Module } from 'fastify-decorator-plugin'
import { APP_FILTER } from 'fastify-decorator-plugin'
import { AppController } from './app.controller.js'
import { CatsModule } from './cats/cats.module.js'
import { HttpExceptionFilter } from './common/http-exception.filter.js'

@Module({
  imports: [CatsModule],
  controllers: [AppController],
  providers: [{ provide: APP_FILTER, useClass: HttpExceptionFilter }]
})
export class AppModule {}
