import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from 'fastify-decorator-plugin'
import { map, type Observable } from 'rxjs'

export interface Envelope<T> {
  data: T
}

/** Wraps what a handler returns in `{ data }`. */
@Injectable()
export class TransformInterceptor<T> implements NestInterceptor<T, Envelope<T>> {
  intercept (context: ExecutionContext, next: CallHandler<T>): Observable<Envelope<T>> {
    return next.handle().pipe(map((data) => ({ data })))
  }
}
