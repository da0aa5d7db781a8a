// NestJS-typed code compiles against the package's types unchanged: guards and interceptors
// written against @nestjs/common's interfaces, NestJS packages' guards, interceptors and dynamic
// modules, and the host methods NestJS code calls.
import type { CallHandler as NestCallHandler, CanActivate as NestCanActivate, ExecutionContext as NestExecutionContext, NestInterceptor as NestNestInterceptor } from '@nestjs/common'
import { ClassSerializerInterceptor as NestClassSerializerInterceptor, Scope as NestScope } from '@nestjs/common'
import { JwtModule } from '@nestjs/jwt'
import { AuthGuard, PassportModule } from '@nestjs/passport'
import { CacheInterceptor, CacheModule } from '@nestjs/cache-manager'
import { ConfigModule } from '@nestjs/config'
import { ThrottlerGuard } from '@nestjs/throttler'
import type { FastifyRequest } from 'fastify'
import { Observable } from 'rxjs'
import { map } from 'rxjs/operators'
import {
  Controller, Get, Injectable, Module, Request, Response, UseGuards, UseInterceptors,
  type ExecutionContext, type Provider
} from 'fastify-decorator-plugin'
import { Test } from 'fastify-decorator-plugin/testing'

// A guard and an interceptor implemented against @nestjs/common's interfaces.
@Injectable()
class NestTypedGuard implements NestCanActivate {
  canActivate (context: NestExecutionContext): boolean {
    return context.switchToHttp().getRequest().headers.authorization !== undefined
  }
}

@Injectable()
class NestTypedInterceptor implements NestNestInterceptor {
  intercept (context: NestExecutionContext, next: NestCallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => ({ data })))
  }
}

// The passport pattern: a guard extending AuthGuard('jwt'), handed the package's context.
@Injectable()
class JwtAuthGuard extends AuthGuard('jwt') {
  override canActivate (context: ExecutionContext) {
    if (context.getType() === 'rpc' || context.getType() === 'ws') return true
    return super.canActivate(context)
  }
}

@Controller('cats')
@UseGuards(NestTypedGuard, AuthGuard('jwt'), JwtAuthGuard, ThrottlerGuard)
@UseInterceptors(NestTypedInterceptor, CacheInterceptor, NestClassSerializerInterceptor)
class CatsController {
  @Get()
  list (@Request() request: Request, @Response({ passthrough: true }) reply: Response) {
    const sameRequest: FastifyRequest = request
    reply.header('x-user', String(sameRequest.headers['x-user']))
    return []
  }
}

// NestJS packages' dynamic modules (and a Promise of one) in imports and exports.
@Module({
  imports: [JwtModule.register({ secret: 'x' }), CacheModule.register(), PassportModule, ConfigModule.forRoot()],
  controllers: [CatsController],
  exports: [JwtModule, CacheModule.register()]
})
export class AppModule {}

// Providers with NestJS's scope values.
export const providers: Provider[] = [
  { provide: 'REQUEST_SCOPED', useFactory: () => 1, scope: NestScope.REQUEST },
  { provide: 'TRANSIENT', useClass: NestTypedGuard, scope: NestScope.TRANSIENT }
]

// The host methods NestJS code calls on a context.
export function hosts (context: ExecutionContext): unknown[] {
  const [request] = context.getArgs()
  return [
    request.headers,
    context.getArgByIndex(1).statusCode,
    context.switchToRpc().getData(),
    context.switchToRpc().getContext(),
    context.switchToWs().getClient(),
    context.switchToWs().getData(),
    context.switchToWs().getPattern(),
    context.getHandler().name
  ]
}

export async function testingModule (): Promise<void> {
  const jwt = JwtModule.register({ secret: 'x' })
  const moduleRef = await Test.createTestingModule({ imports: [jwt, AppModule] })
    .useMocker((token) => token === 'MISSING' ? {} : undefined)
    .overrideModule(jwt).useModule(JwtModule.register({ secret: 'test' }))
    .overrideModule(ConfigModule.forRoot()).useModule(ConfigModule.forRoot({ ignoreEnvFile: true }))
    .compile()
  const all: string[] = moduleRef.get<string>('TOKEN', { each: true })
  void all
  const app = moduleRef.createNestApplication()
  app.useGlobalInterceptors(new CacheInterceptor({} as any, {} as any), new NestTypedInterceptor())
  await app.listen(0, '127.0.0.1', (error) => { if (error) throw error })
  await app.listen(3000, () => {})
  const url: string = await app.getUrl()
  void url
}
