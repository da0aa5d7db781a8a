import { Body, Controller, Get, Headers, HttpCode, Post, RawBody, UnauthorizedException } from '../../plugin/index.js'
import { SignatureService } from './signature.service.js'
import { EventsService, type WebhookEvent } from './events.service.js'

@Controller('webhooks')
export class WebhooksController {
  constructor (private readonly signatures: SignatureService, private readonly events: EventsService) {}

  // Only this route reads the raw bytes; the signature covers them, not the re-serialized JSON.
  @Post('payments')
  @HttpCode(202)
  receive (@RawBody() raw: Buffer, @Headers('x-signature') signature: string | undefined, @Body() event: WebhookEvent) {
    if (!this.signatures.verify(raw, signature)) throw new UnauthorizedException('Invalid signature')
    return { received: this.events.record(event) }
  }

  @Get('payments')
  list () { return this.events.all() }
}
