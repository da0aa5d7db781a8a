// Type tests: compiled with tsc --noEmit in `npm test`; each @ts-expect-error must be an error.
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, UseGuards, Scope, RequestMethod, type CanActivate, type ExecutionContext } from '../../plugin/index.js'

@Module({})
class AppModule {}

const app = Fastify()
await app.register(decoratorPlugin, { module: AppModule })
// @ts-expect-error: module is required
await app.register(decoratorPlugin, {})
// @ts-expect-error: prefix is a string
await app.register(decoratorPlugin, { module: AppModule, prefix: 1 })
await app.register(decoratorPlugin, { module: AppModule, prefix: '/api', prefixTrailingSlash: 'both' })
await app.register(decoratorPlugin, { module: AppModule, prefix: '/api', prefixExclude: ['health', { path: 'cats/:id', method: RequestMethod.GET }] })
// @ts-expect-error: an exclusion is a path or { path, method }
await app.register(decoratorPlugin, { module: AppModule, prefix: '/api', prefixExclude: [{ path: 'health' }] })
// @ts-expect-error: prefixTrailingSlash takes Fastify's values
await app.register(decoratorPlugin, { module: AppModule, prefixTrailingSlash: 'trailing' })
@Controller({ path: 'y', prefixTrailingSlash: 'slash' })
class Y {}
void Y
// @ts-expect-error: the controller option takes the same values
@Controller({ path: 'z', prefixTrailingSlash: true })
class Z {}
void Z

class Guard implements CanActivate { canActivate (ctx: ExecutionContext) { return ctx.getType() === 'http' } }

@Controller('x')
@UseGuards(Guard)
class X {
  @Get() get () { return 1 }
}
void X

@Controller({ path: 'scoped', scope: Scope.REQUEST })
class ScopedController { @Get() get () { return 1 } }
void ScopedController

// @ts-expect-error: scope is one of DEFAULT, REQUEST, TRANSIENT
@Controller({ path: 'x', scope: 'request' })
class BadScope {}
void BadScope

// @ts-expect-error: @Controller's options are path, host, version and scope
@Controller({ path: 'x', durable: true })
class UnknownKey {}
void UnknownKey

const value: number = app.container.get<number>('token')
void value
