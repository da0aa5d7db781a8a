// Type tests: compiled with tsc --noEmit in `npm test`; each @ts-expect-error must be an error.
import { Observable, catchError, map, of, tap } from 'rxjs'
import type { CallHandler, ExecutionContext, NestInterceptor } from '../../plugin/index.js'

// A NestJS interceptor as written for NestJS: rxjs operators on next.handle(), an Observable back.
export class TransformInterceptor implements NestInterceptor {
  intercept (context: ExecutionContext, next: CallHandler<{ id: number }>): Observable<{ data: { id: number } }> {
    return next.handle().pipe(map((data) => ({ data })))
  }
}

export class ChainInterceptor implements NestInterceptor {
  intercept (context: ExecutionContext, next: CallHandler<number>): Observable<string> {
    return next.handle().pipe(
      tap((value) => { const n: number = value; void n }),
      map((value) => value * 2),
      map((value) => String(value)),
      catchError(() => of('fallback'))
    )
  }
}

export class WrongInterceptor implements NestInterceptor {
  intercept (context: ExecutionContext, next: CallHandler<number>): Observable<string> {
    // @ts-expect-error: the operators give an Observable of numbers, not of strings
    return next.handle().pipe(map((value) => value * 2))
  }
}

// `await next.handle()` keeps its type, and so do the promise methods.
export class AwaitingInterceptor implements NestInterceptor {
  async intercept (context: ExecutionContext, next: CallHandler<string>): Promise<{ length: number }> {
    const value: string = await next.handle()
    // @ts-expect-error: the awaited value is a string
    const wrong: number = await next.handle()
    void wrong
    const caught: string | number = await next.handle().catch(() => 0)
    void caught
    return { length: value.length }
  }
}
