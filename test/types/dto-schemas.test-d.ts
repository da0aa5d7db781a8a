// Type tests for compiled DTOs: the compile option and DTO classes in @RouteSchema.
import { IsString } from 'class-validator'
import { Body, Controller, Post, RouteSchema, ValidationPipe, type ValidationPipeOptions } from '../../plugin/index.js'

class CreateCatDto {
  @IsString() name!: string
}

const options: ValidationPipeOptions = { compile: true, whitelist: true }
// @ts-expect-error: compile is a boolean
const wrong: ValidationPipeOptions = { compile: 'yes' }
void wrong

@Controller('cats')
class CatsController {
  @Post()
  @RouteSchema({ body: CreateCatDto, querystring: CreateCatDto, response: { 201: CreateCatDto, 400: { type: 'object' } } })
  create (@Body(new ValidationPipe(options)) cat: CreateCatDto) { return cat }
}
void CatsController
