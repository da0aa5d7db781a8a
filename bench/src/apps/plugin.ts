import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import {
  Body, Controller, Delete, Get, Headers, Inject, Injectable, Module, Param, ParseIntPipe, Post, Query,
  REQUEST, RouteSchema, Scope, UseGuards, UseInterceptors, UsePipes, ValidationPipe, decoratorPlugin,
  type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor, type Type
} from '../../../plugin/index.js'
import { CONTROLLERS, TOKEN, itemSchema, type AppName } from '../scenarios.js'
import { CreateItemDto } from './dto.js'

// The benchmark apps written with this plugin. Tokens are named with @Inject so the apps also
// run where no decorator metadata is emitted (the quick correctness test runs them that way).

@Controller()
class HelloController {
  @Get('hello') hello () { return { hello: 'world' } }
}

@Controller('users')
class UsersController {
  @Get(':id')
  find (@Param('id', ParseIntPipe) id: number, @Query('fields') fields: string, @Headers('x-tenant') tenant: string) {
    return { id, fields, tenant }
  }
}

@Injectable()
class TokenGuard implements CanActivate {
  canActivate (ctx: ExecutionContext): boolean {
    return ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization === TOKEN
  }
}

@Injectable()
class WrapInterceptor implements NestInterceptor {
  async intercept (ctx: ExecutionContext, next: CallHandler): Promise<unknown> {
    return { data: await next.handle() }
  }
}

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
class ItemsController {
  @Post()
  @RouteSchema({ body: itemSchema })
  create (@Body() body: CreateItemDto) { return { id: 1, name: body.name, qty: body.qty } }
}

@Controller('items')
@UseGuards(TokenGuard)
@UseInterceptors(WrapInterceptor)
class ValidatedItemsController {
  @Post()
  @UsePipes(new ValidationPipe())
  create (@Body() body: CreateItemDto) { return { id: 1, name: body.name, qty: body.qty } }
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
  constructor (@Inject(RequestContext) private readonly context: RequestContext) {}
  @Get() get () { return { requestId: this.context.id, count: this.context.touch() } }
}

// 500 controllers of four routes each, made in a loop so all targets declare the same ones.
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

function rootModule (name: AppName): Type {
  const controllers: Record<AppName, () => Type[]> = {
    hello: () => [HelloController],
    params: () => [UsersController],
    pipeline: () => [ItemsController],
    'pipeline-cv': () => [ValidatedItemsController],
    'request-scope': () => [ScopedController],
    startup: startupControllers
  }
  const providers = name === 'request-scope' ? [RequestContext] : []
  @Module({ controllers: controllers[name](), providers })
  class AppModule {}
  return AppModule
}

/** The plugin app for one scenario, ready, not listening. */
export async function buildApp (name: AppName): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: rootModule(name) })
  await app.ready()
  return app
}
