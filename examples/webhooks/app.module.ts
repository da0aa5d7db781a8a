import { Module } from '../../plugin/index.js'
import { WebhooksController } from './webhooks.controller.js'
import { EventsService } from './events.service.js'
import { SignatureService, WEBHOOK_SECRET } from './signature.service.js'

@Module({
  controllers: [WebhooksController],
  providers: [
    SignatureService,
    EventsService,
    { provide: WEBHOOK_SECRET, useFactory: () => process.env.WEBHOOK_SECRET ?? 'change-me' }
  ]
})
export class AppModule {}
