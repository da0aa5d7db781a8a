import { Module, type MiddlewareConsumer, type NestModule } from 'fastify-decorator-plugin'
import { RequestIdMiddleware } from '../common/request-id.middleware.js'
import { CatsController } from './cats.controller.js'
import { CatsService } from './cats.service.js'

@Module({
  controllers: [CatsController],
  providers: [CatsService]
})
export class CatsModule implements NestModule {
  configure (consumer: MiddlewareConsumer): void {
    consumer.apply(RequestIdMiddleware).forRoutes(CatsController)
  }
}
