import { Body, Controller, Get, Post, Query, UseGuards, UseInterceptors, UsePipes, ValidationPipe } from '@nestjs/common'
import { CreateItemDto, SearchQueryDto } from './dto.js'
import { TokenGuard, WrapInterceptor } from './nest.js'

// The pipeline with the body checked by class-validator instead of a JSON schema.

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
export class ValidatedItemsController {
  @Post()
  @UsePipes(new ValidationPipe())
  create (@Body() body: CreateItemDto) { return { id: 1, name: body.name, qty: body.qty } }
}

// The query-dto scenario: class-validator after class-transformer's conversion of `limit`.
@Controller('search')
export class SearchController {
  @Get()
  @UsePipes(new ValidationPipe({ transform: true }))
  search (@Query() query: SearchQueryDto) { return { limit: query.limit, order: query.order, q: query.q } }
}
