import { Controller, Get, Injectable, Param, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from 'fastify-decorator-plugin'
import { map, type Observable } from 'rxjs'
import { rxItem } from '../scenarios.js'

// A NestJS-style interceptor: rxjs operators on next.handle().
@Injectable()
export class RxWrapInterceptor implements NestInterceptor {
  intercept (ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => ({ data })))
  }
}

@Controller('rx')
@UseInterceptors(RxWrapInterceptor)
export class RxController {
  @Get(':id') get (@Param('id') id: string) { return rxItem(id) }
}
