import 'reflect-metadata'
import {
  Body, Controller, Delete, Get, Headers, Inject, Injectable, Module, Param, ParseIntPipe, Post, Query,
  Scope, Sse, UseGuards, UseInterceptors,
  type CallHandler, type MessageEvent, type CanActivate, type ExecutionContext, type NestInterceptor, type Type
} from '@nestjs/common'
import { NestFactory, REQUEST } from '@nestjs/core'
import { FastifyAdapter, RouteSchema, type NestFastifyApplication } from '@nestjs/platform-fastify'
import type { FastifyRequest } from 'fastify'
import { lastValueFrom, map, of, type Observable } from 'rxjs'
import { CONTROLLERS, TOKEN, itemSchema, rxItem, type AppName, type Item } from '../scenarios.js'
import { events } from './sse-source.js'

// The benchmark apps written with NestJS on its Fastify adapter, compiled by tsc with metadata.

@Controller()
class HelloController {
  @Get('hello') hello () { return { hello: 'world' } }
}

@Controller()
class EventsController {
  @Sse('events') events (): Observable<MessageEvent> {
    return events()
  }
}

@Controller('users')
class UsersController {
  @Get(':id')
  find (@Param('id', ParseIntPipe) id: number, @Query('fields') fields: string, @Headers('x-tenant') tenant: string) {
    return { id, fields, tenant }
  }
}

@Injectable()
export class TokenGuard implements CanActivate {
  canActivate (ctx: ExecutionContext): boolean {
    return ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization === TOKEN
  }
}

@Injectable()
export class WrapInterceptor implements NestInterceptor {
  intercept (ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => ({ data })))
  }
}

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
class ItemsController {
  @Post()
  @RouteSchema({ body: itemSchema })
  create (@Body() body: Item) { return { id: 1, name: body.name, qty: body.qty } }
}

@Controller('rx')
@UseInterceptors(WrapInterceptor)
class RxController {
  @Get(':id') get (@Param('id') id: string) { return rxItem(id) }
}

// NestJS's next.handle() is an Observable only, and intercept must give one: awaiting takes
// lastValueFrom(), and the wrapped value goes back through of().
@Injectable()
class AwaitingInterceptor implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    return of({ data: await lastValueFrom(next.handle()) })
  }
}

@Controller('async')
@UseInterceptors(AwaitingInterceptor)
class AsyncController {
  @Get(':id') get (@Param('id') id: string) { return rxItem(id) }
}

@Injectable({ scope: Scope.REQUEST })
class RequestContext {
  readonly id: string | undefined
  #count = 0
  constructor (@Inject(REQUEST) request: FastifyRequest) { this.id = request.headers['x-request-id'] as string | undefined }
  touch (): number { return ++this.#count }
}

@Controller('scoped')
class ScopedController {
  constructor (private readonly context: RequestContext) {}
  @Get() get () { return { requestId: this.context.id, count: this.context.touch() } }
}

function startupControllers (): Type[] {
  const controllers: Type[] = []
  for (let c = 0; c < CONTROLLERS; c++) {
    @Controller(`c${c}`)
    class ResourceController {
      @Get() list () { return { c, items: [] } }
      @Get(':id') get (@Param('id') id: string) { return { c, id } }
      @Post() create (@Body() body: unknown) { return { c, body } }
      @Delete(':id') remove (@Param('id') id: string) { return { c, deleted: id } }
    }
    controllers.push(ResourceController)
  }
  return controllers
}

async function rootModule (name: AppName): Promise<Type> {
  const controllers: Record<AppName, () => Type[] | Promise<Type[]>> = {
    hello: () => [HelloController],
    params: () => [UsersController],
    pipeline: () => [ItemsController],
    // Loaded for this scenario only, so no other one (startup above all) pays for class-validator.
    'pipeline-cv': async () => [(await import('./nest-cv.js')).ValidatedItemsController],
    // NestJS has no DTO compilation: what its users run is class-validator.
    'pipeline-dto': async () => [(await import('./nest-cv.js')).ValidatedItemsController],
    'query-dto': async () => [(await import('./nest-cv.js')).SearchController],
    'rxjs-interceptor': () => [RxController],
    'async-interceptor': () => [AsyncController],
    'request-scope': () => [ScopedController],
    sse: () => [EventsController],
    'sse-100': () => [EventsController],
    startup: startupControllers
  }
  const list = await controllers[name]()
  const providers = name === 'request-scope' ? [RequestContext] : []
  @Module({ controllers: list, providers })
  class AppModule {}
  return AppModule
}

/** Starts the NestJS app for one scenario on 127.0.0.1; resolves to its port. */
export async function listen (name: AppName): Promise<number> {
  const app = await NestFactory.create<NestFastifyApplication>(await rootModule(name), new FastifyAdapter(), { logger: false })
  await app.listen(0, '127.0.0.1')
  return (app.getHttpServer().address() as { port: number }).port
}
