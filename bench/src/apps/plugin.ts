import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import {
  Body, Controller, Delete, Get, Headers, Inject, Injectable, Module, Param, ParseIntPipe, Post, Query,
  REQUEST, RouteSchema, Scope, UseGuards, UseInterceptors, decoratorPlugin,
  type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor, type Type
} from 'fastify-decorator-plugin'
import { CONTROLLERS, TOKEN, itemSchema, rxItem, type AppName, type Item } from '../scenarios.js'

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
export class TokenGuard implements CanActivate {
  canActivate (ctx: ExecutionContext): boolean {
    return ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization === TOKEN
  }
}

@Injectable()
export class WrapInterceptor implements NestInterceptor {
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
  create (@Body() body: Item) { return { id: 1, name: body.name, qty: body.qty } }
}

// The rxjs-interceptor scenario's route with the pipeline's async interceptor instead.
@Controller('async')
@UseInterceptors(WrapInterceptor)
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

async function rootModule (name: AppName): Promise<Type> {
  const controllers: Record<AppName, () => Type[] | Promise<Type[]>> = {
    hello: () => [HelloController],
    params: () => [UsersController],
    pipeline: () => [ItemsController],
    // Loaded for this scenario only, so no other one (startup above all) pays for class-validator.
    'pipeline-cv': async () => [(await import('./plugin-cv.js')).ValidatedItemsController],
    'pipeline-dto': async () => [(await import('./plugin-dto.js')).CompiledItemsController],
    'query-dto': async () => [(await import('./plugin-query.js')).SearchController],
    // rxjs too: loaded for this scenario only, as the plugin itself loads it only for intercepted routes.
    'rxjs-interceptor': async () => [(await import('./plugin-rx.js')).RxController],
    'async-interceptor': () => [AsyncController],
    'request-scope': () => [ScopedController],
    // rxjs too, for these scenarios only.
    sse: async () => [(await import('./plugin-sse.js')).EventsController],
    'sse-100': async () => [(await import('./plugin-sse.js')).EventsController],
    startup: startupControllers
  }
  const list = await controllers[name]()
  const providers = name === 'request-scope' ? [RequestContext] : []
  @Module({ controllers: list, providers })
  class AppModule {}
  return AppModule
}

/** The plugin app for one scenario, ready, not listening. */
export async function buildApp (name: AppName): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(decoratorPlugin, { module: await rootModule(name) })
  await app.ready()
  return app
}
