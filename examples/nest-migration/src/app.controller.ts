import { Controller, Get } from 'fastify-decorator-plugin'

@Controller()
export class AppController {
  @Get()
  status (): { status: string } {
    return { status: 'ok' }
  }
}
