import { Controller, Get, Query, UsePipes, ValidationPipe } from 'fastify-decorator-plugin'
import { SearchQueryDto } from './dto.js'

// The query-dto scenario: the query DTO compiled, `limit` converted as class-transformer converts
// it, and the handler given the DTO instance.

@Controller('search')
export class SearchController {
  @Get()
  @UsePipes(new ValidationPipe({ compile: true, transform: true }))
  search (@Query() query: SearchQueryDto) { return { limit: query.limit, order: query.order, q: query.q } }
}
