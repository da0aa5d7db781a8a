import type { ArgumentMetadata, CanActivate, ExceptionFilter, NestInterceptor, ObservableLike, PipeTransform, Type } from '../../types/index.js'
import type { WsParamDefinition } from './decorators.js'
import { WsExecutionContext } from './ws-context.js'
import { WsException } from './ws-exception.js'
import { handled } from '../pipeline/call-handler.js'
import { isObservable, settle } from '../pipeline/results.js'
import { andThen, isThenable, promised, whenAll } from '../util/thenable.js'
import { answerException } from './exception-answer.js'

/** What a gateway handler is composed from, its enhancers' instances in the order they run. */
export interface MessagePlan {
  instance: any
  cls: Type
  key: string | symbol
  method: (...args: any[]) => any
  event: string
  params: WsParamDefinition[] | undefined
  paramTypes: unknown[] | undefined
  guards: CanActivate[]
  pipes: PipeTransform[]
  interceptors: NestInterceptor[]
  /** Nearest first: the handler's, then the gateway's, each level's last one first. */
  filters: Array<{ filter: ExceptionFilter, types: Function[] }>
  log: (error: unknown, message: string) => void
}

type Run = (args: unknown[], ctx: WsExecutionContext) => unknown

const settleRun = (run: () => unknown): unknown => settle(run())
const toPromise = (run: () => unknown): Promise<unknown> => promised(settleRun, run)

/**
 * The function a client's message runs: `(client, data, ...rest)` gives a promise of the result, a
 * value or an Observable; what fails on the way (a guard, a pipe, the method, a value the
 * Observable errors with) goes to the filters, then to the built-in `exception` event.
 */
export function messageCallback (plan: MessagePlan): (...args: unknown[]) => unknown {
  if (plan.guards.length === 0 && plan.interceptors.length === 0 && !hasPipes(plan)) return directCallback(plan)
  const { event, cls, method } = plan
  const call = invoker(plan)
  const run = plan.interceptors.length === 0 ? call : intercepted(call, plan.interceptors)
  const guarded = plan.guards.length === 0 ? run : guardedRun(plan.guards, run)
  return async (...given: unknown[]) => {
    given.push(event)
    const ctx = new WsExecutionContext(given, cls, method)
    try {
      const result = await guarded(given, ctx)
      return isObservable(result) ? caught(result, plan, ctx) : result
    } catch (error) {
      await failed(error, plan, ctx)
      return undefined
    }
  }
}

const hasPipes = (plan: MessagePlan): boolean => plan.pipes.length > 0 || (plan.params?.some((param) => param.pipes.length > 0) ?? false)

/**
 * A handler without guards, pipes or interceptors: the method runs at once and its value is given
 * as it is; a promise is awaited and an Observable wrapped only when the method returns one. What
 * fails goes to the filters as on the full path, and the callback then gives a promise of nothing.
 */
function directCallback (plan: MessagePlan): (...args: unknown[]) => unknown {
  const { event, cls, method } = plan
  const call = directInvoker(plan)
  return (...given: unknown[]) => {
    given.push(event)
    let result: unknown
    try {
      result = call(given)
    } catch (error) {
      return failed(error, plan, new WsExecutionContext(given, cls, method))
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => isObservable(value) ? caught(value, plan, new WsExecutionContext(given, cls, method)) : value,
        (error) => failed(error, plan, new WsExecutionContext(given, cls, method))
      )
    }
    return isObservable(result) ? caught(result, plan, new WsExecutionContext(given, cls, method)) : result
  }
}

// The arguments without pipes: taken synchronously; a custom decorator's promise is awaited, as on the full path.
function directInvoker (plan: MessagePlan): (args: unknown[]) => unknown {
  const { instance, key, params, cls, method } = plan
  if (params === undefined || params.length === 0) return (args) => instance[key](...args)
  const extractors = params.map(extractor)
  const indexes = params.map((param) => param.index)
  const count = Math.max(...indexes) + 1
  const custom = params.some((param) => param.kind === 'custom')
  if (count === 1 && !custom) {
    // The common `handler (@MessageBody() data)`: no array, no context.
    const [extract] = extractors
    const applyOne = (value: unknown): unknown => instance[key](value)
    return (args) => andThen(extract(args, undefined!), applyOne)
  }
  const apply = (values: unknown[]): unknown => instance[key](...values)
  return (args) => {
    const ctx = custom ? new WsExecutionContext(args, cls, method) : undefined
    const values = new Array(count)
    for (let i = 0; i < extractors.length; i++) values[indexes[i]] = extractors[i](args, ctx!)
    return andThen(whenAll(values), apply)
  }
}

function guardedRun (guards: CanActivate[], run: Run): Run {
  return async (args, ctx) => {
    for (let i = 0; i < guards.length; i++) {
      if (!await settle(guards[i].canActivate(ctx))) throw new WsException('Forbidden resource')
    }
    return run(args, ctx)
  }
}

function intercepted (call: Run, interceptors: NestInterceptor[]): Run {
  const intercept = (args: unknown[], ctx: WsExecutionContext, i: number): unknown => {
    const rest = (): unknown => i + 1 === interceptors.length ? call(args, ctx) : intercept(args, ctx, i + 1)
    return interceptors[i].intercept(ctx, { handle: () => handled(rest, toPromise) as any })
  }
  return (args, ctx) => intercept(args, ctx, 0)
}

// Without parameter decorators the method gets NestJS's arguments as they are: (client, data, ..., event).
function invoker (plan: MessagePlan): Run {
  const { instance, key, params } = plan
  if (params === undefined || params.length === 0) return (args) => instance[key](...args)
  const resolvers = params.map((param) => resolver(param, plan))
  let count = 0
  for (const param of params) count = Math.max(count, param.index + 1)
  return async (args, ctx) => {
    const values = new Array(count)
    for (let i = 0; i < params.length; i++) values[params[i].index] = await resolvers[i](args, ctx)
    return instance[key](...values)
  }
}

type Resolve = (args: unknown[], ctx: WsExecutionContext) => unknown

function resolver (param: WsParamDefinition, plan: MessagePlan): Resolve {
  const extract = extractor(param)
  if (param.kind === 'socket' || param.kind === 'ack') return extract
  const pipes = [...plan.pipes, ...param.pipes as PipeTransform[]]
  if (pipes.length === 0) return extract
  const metadata: ArgumentMetadata = { type: param.kind === 'body' ? 'body' : 'custom', metatype: plan.paramTypes?.[param.index] as Type | undefined, data: param.data as string | undefined }
  return async (args, ctx) => {
    let value = await extract(args, ctx)
    for (let i = 0; i < pipes.length; i++) value = await pipes[i].transform(value, metadata)
    return value
  }
}

function extractor (param: WsParamDefinition): Resolve {
  switch (param.kind) {
    case 'socket': return (args) => args[0]
    case 'ack': return (args) => args.find((arg) => typeof arg === 'function')
    case 'custom': {
      const { factory, data } = param
      return (args, ctx) => factory!(data, ctx)
    }
    default: {
      const key = param.data as string | undefined
      if (key === undefined) return (args) => args[1]
      return (args) => {
        const data = args[1]
        return typeof data === 'object' && data !== null && Object.hasOwn(data, key) ? (data as Record<string, unknown>)[key] : undefined
      }
    }
  }
}

// An Observable result: its values go out, an error it ends with goes to the filters.
function caught (result: ObservableLike, plan: MessagePlan, ctx: WsExecutionContext): ObservableLike {
  return {
    subscribe (observer: any) {
      return result.subscribe({
        next: (value: unknown) => observer.next?.(value),
        error: (error: unknown) => { failed(error, plan, ctx).then(() => observer.complete?.(), () => observer.complete?.()) },
        complete: () => observer.complete?.()
      })
    }
  } as ObservableLike
}

async function failed (exception: unknown, plan: MessagePlan, ctx: WsExecutionContext): Promise<void> {
  const entry = plan.filters.find(({ types }) => types.length === 0 || types.some((type) => exception instanceof (type as Type)))
  if (entry === undefined) return answerException(exception, ctx, plan.log)
  try {
    await entry.filter.catch(exception, ctx)
  } catch (error) {
    plan.log(error, `Exception filter ${entry.filter.constructor.name} threw in ${plan.cls.name}.${String(plan.key)}`)
  }
}
