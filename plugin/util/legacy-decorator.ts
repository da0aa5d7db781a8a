import { ERR_INVALID_DECLARATION } from './errors.js'

// What a TC39 (standard) decorator receives as its second argument.
interface DecoratorContext { kind: string, name?: string | symbol, static?: boolean }

function isDecoratorContext (value: unknown): value is DecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as DecoratorContext).kind === 'string'
}

function applied (target: unknown, context: DecoratorContext): string {
  const name = typeof context.name === 'symbol' ? context.name.toString() : context.name
  if (context.kind === 'class') return `the class ${name ?? (target as Function)?.name ?? '(anonymous)'}`
  return `the ${context.static === true ? 'static ' : ''}${context.kind} ${String(name)} of a class`
}

/**
 * Every decorator of the package is written for TypeScript's "experimentalDecorators" calling
 * convention, `(target, key?, descriptorOrIndex?)`. Without that setting TypeScript, tsx and
 * esbuild call decorators the TC39 way, `(value, context)`: the metadata would be written where
 * the plugin never looks (every route a 404), so such a call fails here instead.
 */
export function refuseTc39 (name: string, target: unknown, context: unknown): void {
  if (isDecoratorContext(context)) {
    throw new ERR_INVALID_DECLARATION(`${name} was applied to ${applied(target, context)} as a TC39 (standard) decorator: ` +
      'TypeScript compiles decorators that way when "experimentalDecorators" is not set (tsx and esbuild read the same tsconfig.json), ' +
      'and the plugin would find no module, route or provider. Set "experimentalDecorators": true in tsconfig.json; ' +
      'to inject by type also set "emitDecoratorMetadata": true and compile with tsc or SWC (under tsx or esbuild name each token with @Inject()).')
  }
}

/**
 * `decorator` behind refuseTc39(). The decorators applied most often (routes, parameters,
 * @Controller()) call refuseTc39() themselves: one closure per use instead of two.
 */
export function legacyDecorator<D extends (...args: any[]) => any> (name: string, decorator: D): D {
  // Fixed arity, no rest array: every legacy call passes at most three arguments.
  return function checked (target: unknown, key: unknown, descriptorOrIndex: unknown) {
    refuseTc39(name, target, key)
    return decorator(target, key, descriptorOrIndex)
  } as D
}
