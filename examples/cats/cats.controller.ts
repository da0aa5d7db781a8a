import {
  Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Query, RouteSchema,
  UseGuards, UseInterceptors, UsePipes, ValidationPipe
} from '../../plugin/index.js'
import type { Cat } from './cat.js'
import { CatsService } from './cats.service.js'
import { CreateCatDto } from './create-cat.dto.js'
import { LoggingInterceptor } from './logging.interceptor.js'
import { Roles } from './roles.decorator.js'
import { RolesGuard } from './roles.guard.js'

@Controller('cats')
@UseGuards(RolesGuard)
@UseInterceptors(LoggingInterceptor)
export class CatsController {
  // Injected by type: tsc emits the constructor's parameter types.
  constructor (private readonly cats: CatsService) {}

  @Get()
  findAll (@Query('breed') breed?: string): Cat[] {
    return this.cats.findAll(breed)
  }

  @Get(':id')
  findOne (@Param('id', ParseIntPipe) id: number): Cat {
    return this.cats.findOne(id)
  }

  // Fastify validates the params with ajv and serializes the reply with the response schema:
  // fields outside it (age, breed) never leave the server.
  @Get(':id/card')
  @RouteSchema({
    params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
    response: {
      200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] }
    }
  })
  card (@Param('id') id: number): Cat {
    return this.cats.findOne(id)
  }

  @Post()
  @Roles('admin')
  @UsePipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, compile: true }))
  create (@Body() dto: CreateCatDto): Cat {
    return this.cats.create(dto)
  }

  @Delete(':id')
  @Roles('admin')
  @HttpCode(204)
  remove (@Param('id', ParseIntPipe) id: number): void {
    this.cats.remove(id)
  }
}
