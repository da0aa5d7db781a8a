// Runs on tsc output (emitDecoratorMetadata): a NestJS application as written for NestJS,
// injection by type included, registered unchanged beside the plugin's own classes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Body, CanActivate, Controller, ExecutionContext, Get, Injectable, Module, NotFoundException, Param,
  ParseIntPipe, Post, SetMetadata, UseGuards, UseInterceptors, UsePipes, ValidationPipe,
  type CallHandler, type NestInterceptor
} from '@nestjs/common'
import { HttpAdapterHost, Reflector } from '@nestjs/core'
import { IsInt, IsString, Min } from 'class-validator'
import { map, type Observable } from 'rxjs'
import type { FastifyRequest } from 'fastify'
import * as plugin from '../../plugin/index.js'
import { build } from '../helpers/app.js'

const Public = () => SetMetadata('public', true)

@Injectable()
class ApiKeyGuard implements CanActivate {
  // @nestjs/core's Reflector, by type.
  constructor (private readonly reflector: Reflector) {}
  canActivate (ctx: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>('public', [ctx.getHandler(), ctx.getClass()])) return true
    return ctx.switchToHttp().getRequest<FastifyRequest>().headers['x-api-key'] === 'secret'
  }
}

@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
  constructor (private readonly adapterHost: HttpAdapterHost) {}
  intercept (ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { httpAdapter } = this.adapterHost
    const url = httpAdapter.getRequestUrl(ctx.switchToHttp().getRequest())
    return next.handle().pipe(map((data) => ({ data, url })))
  }
}

class CreateCatDto {
  @IsString() name!: string
  @IsInt() @Min(0) age!: number
}

// A service of the plugin's, injected by type into NestJS's classes.
@plugin.Injectable()
class Store {
  readonly cats = new Map<number, CreateCatDto>([[1, { name: 'Tom', age: 3 }]])
}

@Injectable()
class CatsService {
  constructor (private readonly store: Store) {}
  find (id: number): CreateCatDto {
    const cat = this.store.cats.get(id)
    if (cat === undefined) throw new NotFoundException(`Cat ${id} not found`)
    return cat
  }

  add (cat: CreateCatDto): number {
    const id = this.store.cats.size + 1
    this.store.cats.set(id, cat)
    return id
  }
}

@Controller('cats')
@UseGuards(ApiKeyGuard)
@UseInterceptors(EnvelopeInterceptor)
class CatsController {
  constructor (private readonly cats: CatsService) {}

  @Get(':id') @Public()
  find (@Param('id', ParseIntPipe) id: number) { return this.cats.find(id) }

  @Post() @UsePipes(new ValidationPipe({ transform: true }))
  create (@Body() cat: CreateCatDto) { return { id: this.cats.add(cat), isDto: cat instanceof CreateCatDto } }
}

@plugin.Module({ providers: [Store], exports: [Store] })
class StoreModule {}

@Module({ imports: [StoreModule], controllers: [CatsController], providers: [CatsService] })
class CatsModule {}

@Module({ imports: [CatsModule] })
class AppModule {}

test('a NestJS module, controller, service, guard and interceptor run unchanged, injected by type', async (t) => {
  const app = await build(t, AppModule)
  assert.deepEqual((await app.inject('/cats/1')).json(), { data: { name: 'Tom', age: 3 }, url: '/cats/1' })
  const missing = await app.inject('/cats/9')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { message: 'Cat 9 not found', error: 'Not Found', statusCode: 404 })
  assert.equal((await app.inject('/cats/x')).statusCode, 400)
})

test('NestJS\'s ValidationPipe and @nestjs/core\'s Reflector in a guard, as NestJS code uses them', async (t) => {
  const app = await build(t, AppModule)
  const cat = { name: 'Felix', age: 2 }
  assert.equal((await app.inject({ method: 'POST', url: '/cats', payload: cat })).statusCode, 403)
  const created = await app.inject({ method: 'POST', url: '/cats', payload: cat, headers: { 'x-api-key': 'secret' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { data: { id: 2, isDto: true }, url: '/cats' })
  const invalid = await app.inject({ method: 'POST', url: '/cats', payload: { name: 1, age: -1 }, headers: { 'x-api-key': 'secret' } })
  assert.equal(invalid.statusCode, 400)
  assert.deepEqual(invalid.json(), { message: ['name must be a string', 'age must not be less than 0'], error: 'Bad Request', statusCode: 400 })
})
