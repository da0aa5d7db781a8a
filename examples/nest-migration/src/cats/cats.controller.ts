import {
  Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, ParseIntPipe, Post, UseGuards, UseInterceptors
} from 'fastify-decorator-plugin'
import { Roles } from '../common/roles.decorator.js'
import { RolesGuard } from '../common/roles.guard.js'
import { TransformInterceptor } from '../common/transform.interceptor.js'
import { CatsService } from './cats.service.js'
import { CreateCatDto } from './dto/create-cat.dto.js'
import type { Cat } from './interfaces/cat.interface.js'

@Controller('cats')
@UseGuards(RolesGuard)
@UseInterceptors(TransformInterceptor)
export class CatsController {
  constructor (private readonly catsService: CatsService) {}

  @Post()
  @Roles('admin')
  create (@Body() createCatDto: CreateCatDto): Cat {
    return this.catsService.create(createCatDto)
  }

  @Get()
  findAll (): Cat[] {
    return this.catsService.findAll()
  }

  @Get(':id')
  findOne (@Param('id', ParseIntPipe) id: number): Cat {
    return this.catsService.findOne(id)
  }

  @Delete(':id')
  @Roles('admin')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove (@Param('id', ParseIntPipe) id: number): void {
    this.catsService.remove(id)
  }
}
