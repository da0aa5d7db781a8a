import { Body, Controller, Post, UseGuards, UseInterceptors, UsePipes, ValidationPipe } from 'fastify-decorator-plugin'
import { CreateItemDto } from './dto.js'
import { TokenGuard, WrapInterceptor } from './plugin.js'

// The pipeline-cv app with the DTO compiled: Fastify's ajv checks the body with the schema
// compiled from CreateItemDto, and the pipe hands the accepted body on.

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
export class CompiledItemsController {
  @Post()
  @UsePipes(new ValidationPipe({ compile: true }))
  create (@Body() body: CreateItemDto) { return { id: 1, name: body.name, qty: body.qty } }
}
