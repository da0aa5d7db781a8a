import type { ForwardReference } from '../types/index.js'
import type { ProviderDefinition, Token } from './scanner.js'
import type { Dependency } from './binding.js'
import { constructorOwner, injectedProperties, injectTokens, optionalParams } from './injectable.js'
import { forwardRefTarget, isForwardRef } from './forward-ref.js'
import { ERR_MISSING_METADATA, ERR_UNDEFINED_FORWARD_REF } from './errors.js'
import { tokenName } from './describe.js'

const erased = new Set<unknown>([undefined, Object, Function])

function isTokenValue (value: unknown): value is Token {
  return !erased.has(value) && ['function', 'string', 'symbol'].includes(typeof value)
}

/** What a definition injects, unresolved: constructor arguments (`params` of them), then properties. */
export function declaredDependencies (definition: ProviderDefinition, module: string): { deps: Dependency[], params: number } {
  if (definition.useExisting !== undefined) return { deps: [{ index: 0, token: definition.useExisting, optional: false, forward: false }], params: 1 }
  if (definition.useFactory) {
    const deps = (definition.inject ?? []).map((entry, index): Dependency => {
      const token = typeof entry === 'object' && entry !== null && 'token' in entry ? entry.token : entry as Token
      const optional = typeof entry === 'object' && entry !== null && 'token' in entry && entry.optional === true
      return { index, token, optional, forward: false }
    })
    return { deps, params: deps.length }
  }
  if (!definition.useClass) return { deps: [], params: 0 }
  const cls = definition.useClass
  const name = `${cls.name} in module ${module}`
  const owner = constructorOwner(cls)
  const types: unknown[] | undefined = Reflect.getOwnMetadata('design:paramtypes', owner)
  const tokens = injectTokens(cls)
  const optional = optionalParams(cls)
  const count = Math.max(types?.length ?? 0, owner.length, ...[...tokens.keys()].map((i) => i + 1))
  const deps: Dependency[] = []
  for (let index = 0; index < count; index++) {
    const declared = tokens.get(index)
    const forward = isForwardRef(declared)
    const token = forward ? forwarded(declared, `${name}: the forwardRef() of the constructor parameter at index [${index}]`) : declared ?? types?.[index]
    // An optional parameter typed by an interface (NestJS's pipes take their options so) gets undefined.
    if (optional.has(index) && types !== undefined && declared === undefined && erased.has(token)) {
      deps.push({ index, token: token as Token, optional: true, forward })
      continue
    }
    if (!isTokenValue(token)) throw new ERR_MISSING_METADATA(missingMetadata(cls, name, index, types !== undefined, token))
    deps.push({ index, token, optional: optional.has(index), forward })
  }
  for (const property of injectedProperties(cls)) {
    const forward = isForwardRef(property.token)
    const place = `the property ${JSON.stringify(String(property.key))}`
    const type: unknown = Reflect.getMetadata('design:type', cls.prototype, property.key)
    const token = forward ? forwarded(property.token as ForwardReference, `${name}: the forwardRef() of ${place}`) : property.token ?? type
    if (!isTokenValue(token)) throw new ERR_MISSING_METADATA(missingPropertyType(cls, name, property.key, token, Reflect.hasMetadata('design:type', cls.prototype, property.key)))
    deps.push({ index: -1, property: property.key, token, optional: property.optional, forward })
  }
  return { deps, params: count }
}

// The token a forwardRef() gives once every file has loaded.
function forwarded (ref: ForwardReference, what: string): unknown {
  const token = forwardRefTarget(ref)
  if (token === undefined) {
    throw new ERR_UNDEFINED_FORWARD_REF(`${what} returned undefined. ` +
      'It must return the token, e.g. forwardRef(() => CatsService); check the name and that the class is exported from its file.')
  }
  return token
}

function missingMetadata (cls: Function, name: string, index: number, hasTypes: boolean, type: unknown): string {
  // Compilers record parameter types only for decorated classes: an undecorated one is the cause whatever the compiler.
  const owner = constructorOwner(cls)
  if (!hasTypes && Reflect.getOwnMetadataKeys(owner).length === 0) {
    const undecorated = owner === cls ? `${cls.name} has no decorator` : `${owner.name}, whose constructor it inherits, has no decorator`
    return `${name} has a constructor parameter at index [${index}], but ${undecorated}, so no type was recorded for its parameters. ` +
      `Add @Injectable() to ${owner.name}: with tsc or SWC and "emitDecoratorMetadata": true that records them; ` +
      'under tsx or esbuild also name each token with @Inject(token).'
  }
  if (!hasTypes) {
    return `${name} has a constructor parameter at index [${index}] with no @Inject() and no type metadata. ` +
      'tsx and esbuild emit no decorator metadata; name the token: ' +
      'constructor(@Inject(SomeService) private readonly some: SomeService), or compile with tsc and "emitDecoratorMetadata": true.'
  }
  return `${name}: the constructor parameter at index [${index}] has the type ${type === undefined ? 'undefined' : tokenName(type)} at run time ` +
    '(an interface, a union, `import type`, or a class imported in a circular way). ' +
    `Name the token with @Inject(token) on that parameter of ${cls.name}.`
}

function missingPropertyType (cls: Function, name: string, key: string | symbol, type: unknown, hasType: boolean): string {
  const place = `the property ${JSON.stringify(String(key))}`
  if (!hasType) {
    return `${name}: ${place} has @Inject() with no token and no type metadata. ` +
      `tsx and esbuild emit no decorator metadata; name the token: @Inject(SomeService) ${String(key)}, or compile with tsc and "emitDecoratorMetadata": true.`
  }
  return `${name}: ${place} has the type ${type === undefined ? 'undefined' : tokenName(type)} at run time ` +
    '(an interface, a union, `import type`, or a class imported in a circular way). ' +
    `Name the token with @Inject(token) on that property of ${cls.name}.`
}
