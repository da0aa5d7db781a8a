import { Module } from '../../plugin/index.js'
import { CatsController } from './cats.controller.js'
import { CatsService } from './cats.service.js'

@Module({
  controllers: [CatsController],
  providers: [CatsService],
  exports: [CatsService]
})
export class CatsModule {}
