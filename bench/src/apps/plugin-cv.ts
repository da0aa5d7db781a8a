import { Body, Controller, Post, UseGuards, UseInterceptors, UsePipes, ValidationPipe } from 'fastify-decorator-plugin'
import { CreateItemDto } from './dto.js'
import { TokenGuard, WrapInterceptor } from './plugin.js'

// The pipeline with the body checked by class-validator instead of a JSON schema.

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
export class ValidatedItemsController {
  @Post()
  @UsePipes(new ValidationPipe())
  create (@Body() body: CreateItemDto) { return { id: 1, name: body.name, qty: body.qty } }
}
