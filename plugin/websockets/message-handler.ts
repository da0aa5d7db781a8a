import type { ArgumentMetadata, CanActivate, ExceptionFilter, NestInterceptor, ObservableLike, PipeTransform, Type } from '../../types/index.js'
import type { EnhancerRef, EnhancerRefs } from '../di/enhancer-ref.js'
import type { WsParamDefinition } from './decorators.js'
import { WsExecutionContext } from './ws-context.js'
import { WsException } from './ws-exception.js'
import { guardCheck } from '../pipeline/guards.js'
import { interceptorChain, type Invoke } from '../pipeline/interceptor-chain.js'
import { piped } from '../pipeline/pipes.js'
import { isObservable, isPending } from '../pipeline/results.js'
import { andThen, steps, whenAll } from '../util/thenable.js'
import { noEntries } from '../util/empty.js'
import { answerException } from './exception-answer.js'
import { catchingEntry } from '../common/exceptions.js'

/** What a gateway handler is composed from, its enhancers in the order they run. */
export interface MessagePlan {
  instance: any
  cls: Type
  key: string | symbol
  method: (...args: any[]) => any
  event: string
  params: WsParamDefinition[] | undefined
  paramTypes: unknown[] | undefined
  guards: Array<EnhancerRef<CanActivate>>
  pipes: Array<EnhancerRef<PipeTransform>>
  /** Each parameter's own pipes, in the order of `params`. */
  paramPipes: Array<Array<EnhancerRef<PipeTransform>>>
  interceptors: Array<EnhancerRef<NestInterceptor>>
  /** Nearest first: the handler's, then the gateway's, each level's last one first. */
  filters: Array<{ filter: ExceptionFilter, types: Function[] }>
  /** Holds the enhancers' instances; gateways have no request-scoped ones. */
  refs: EnhancerRefs
  log: (error: unknown, message: string) => void
}

type Run = (args: unknown[], ctx: WsExecutionContext | undefined) => unknown

/**
 * The function a client's message runs: `(client, data, ...rest)` gives the handler's value, a
 * promise or an Observable, composed once from what the handler declares. Nothing waits that has
 * its value now: a handler without enhancers (or with guards and pipes that answer at once) is
 * called at once and its value given as it is. What fails on the way (a guard, a pipe, the method,
 * a value the Observable errors with) goes to the filters, then to the built-in `exception`
 * event, and the callback gives a promise of nothing.
 */
export function messageCallback (plan: MessagePlan): (...args: unknown[]) => unknown {
  const { event, cls, method, guards, interceptors } = plan
  const call = invoker(plan)
  const intercepted = interceptors.length === 0 ? call : interceptedRun(call, plan)
  const run = guards.length === 0 ? intercepted : guardedRun(intercepted, plan)
  // Guards, interceptors and custom parameters read the context; otherwise one is made only for a failure.
  const eager = guards.length > 0 || interceptors.length > 0 || (plan.params?.some((param) => param.kind === 'custom') ?? false)
  const contextOf = (ctx: WsExecutionContext | undefined, given: unknown[]): WsExecutionContext => ctx ?? new WsExecutionContext(given, cls, method)
  return (...given: unknown[]) => {
    given.push(event)
    const ctx = eager ? new WsExecutionContext(given, cls, method) : undefined
    let result: unknown
    try {
      result = run(given, ctx)
    } catch (error) {
      return failed(error, plan, contextOf(ctx, given))
    }
    if (isPending(result)) {
      return Promise.resolve(result).then(
        (value) => isObservable(value) ? caught(value, plan, contextOf(ctx, given)) : value,
        (error) => failed(error, plan, contextOf(ctx, given))
      )
    }
    return isObservable(result) ? caught(result, plan, contextOf(ctx, given)) : result
  }
}

const denied = (): Error => new WsException('Forbidden resource')

// The guards as routes run them (guardCheck): no promise while they answer at once.
function guardedRun (run: Run, plan: MessagePlan): Run {
  const { guards } = plan
  const check = guardCheck<undefined>(guards, plan.refs, denied)
  const proceed = (_: undefined, args: unknown[], ctx: WsExecutionContext | undefined): unknown => run(args, ctx)
  return (args, ctx) => andThen(steps(undefined, guards.length, check, undefined, ctx!), proceed, args, ctx)
}

// The interceptors as routes chain them: the call wrapped to the chain's (instance, arguments, nothing, context).
function interceptedRun (run: Run, plan: MessagePlan): Run {
  const call: Invoke<unknown[], undefined> = (instance, args, _, ctx) => run(args, ctx as WsExecutionContext)
  const chain = interceptorChain(call, plan.interceptors, plan.refs)
  return (args, ctx) => chain(undefined, args, undefined, ctx)
}

// Without parameter decorators the method gets NestJS's arguments as they are: (client, data, ..., event).
// Arguments are taken at once; a promise (of a pipe, or a custom decorator) is waited for.
function invoker (plan: MessagePlan): Run {
  const { instance, key, params } = plan
  if (params === undefined || params.length === 0) return (args) => instance[key](...args)
  const resolvers = params.map((param, p) => resolver(param, plan.paramPipes[p] ?? noEntries, plan))
  const indexes = params.map((param) => param.index)
  const count = Math.max(...indexes) + 1
  if (count === 1) {
    // The common `handler (@MessageBody() data)`: no array.
    const [resolve] = resolvers
    const callOne = (value: unknown): unknown => instance[key](value)
    return (args, ctx) => andThen(resolve(args, ctx), callOne)
  }
  const apply = (values: unknown[]): unknown => instance[key](...values)
  return (args, ctx) => {
    const values = new Array(count)
    for (let i = 0; i < resolvers.length; i++) values[indexes[i]] = resolvers[i](args, ctx)
    return andThen(whenAll(values), apply)
  }
}

type Resolve = (args: unknown[], ctx: WsExecutionContext | undefined) => unknown

// A parameter's value, then its pipes as a route's run (piped): the gateway's and handler's, then its own.
function resolver (param: WsParamDefinition, own: Array<EnhancerRef<PipeTransform>>, plan: MessagePlan): Resolve {
  const extract = extractor(param)
  if (param.kind === 'socket' || param.kind === 'ack') return extract
  const pipes = plan.pipes.length === 0 ? own : [...plan.pipes, ...own]
  if (pipes.length === 0) return extract
  const metadata: ArgumentMetadata = { type: param.kind === 'body' ? 'body' : 'custom', metatype: plan.paramTypes?.[param.index] as Type | undefined, data: param.data as string | undefined }
  return piped(extract, pipes, metadata, plan.refs)
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
  const entry = catchingEntry(plan.filters, exception)
  if (entry === undefined) return answerException(exception, ctx, plan.log)
  try {
    await entry.filter.catch(exception, ctx)
  } catch (error) {
    plan.log(error, `Exception filter ${entry.filter.constructor.name} threw in ${plan.cls.name}.${String(plan.key)}`)
  }
}
