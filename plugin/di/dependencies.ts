import type { ForwardReference } from '../../types/index.js'
import { isToken, type Token } from './providers.js'
import type { Binding, Dependency } from './binding.js'
import { constructorOwner, injectedProperties, optionalParams, ownInjectTokens } from '../decorators/injectable.js'
import { forwardRefTarget, isForwardRef } from '../decorators/forward-ref.js'
import { ERR_MISSING_METADATA, ERR_UNDEFINED_FORWARD_REF } from '../util/errors.js'
import { tokenName } from '../util/describe.js'
import { ownDeclaration } from '../util/metadata.js'
import { kController } from '../util/symbols.js'

const erased = new Set<unknown>([undefined, Object, Function])

// A token a dependency can be found by: not a type erased to Object or Function, nor none.
function isTokenValue (value: unknown): value is Token {
  return !erased.has(value) && isToken(value)
}

/**
 * Sets what a binding injects, unresolved, and how many of those are constructor arguments:
 * constructor arguments first, then properties.
 */
export function declareDependencies (binding: Binding): void {
  const { definition } = binding
  // Every dependency is made with the same properties (binding and builtin are set when it is
  // resolved), so they all share one hidden class. Each list is made at its size: the binding
  // keeps it as long as the app runs.
  if (definition.useExisting !== undefined) {
    binding.deps = [dependency(0, undefined, definition.useExisting, false, false)]
    binding.params = 1
    return
  }
  if (definition.useFactory) {
    const inject = definition.inject ?? []
    const deps: Dependency[] = new Array(inject.length)
    for (let index = 0; index < inject.length; index++) {
      const entry = inject[index]
      const described = typeof entry === 'object' && entry !== null && 'token' in entry
      deps[index] = dependency(index, undefined, described ? entry.token : entry as Token, described && entry.optional === true, false)
    }
    binding.deps = deps
    binding.params = inject.length
    return
  }
  if (!definition.useClass) {
    binding.deps = []
    binding.params = 0
    return
  }
  const cls = definition.useClass
  const module = binding.module.name
  // Run for every class bound at startup, most of which inject nothing: no collections are
  // made for what is not declared, and the names for messages only when one is thrown.
  const owner = constructorOwner(cls)
  const types: unknown[] | undefined = Reflect.getOwnMetadata('design:paramtypes', owner)
  const tokens = ownInjectTokens(owner)
  let count = Math.max(types?.length ?? 0, owner.length)
  if (tokens !== undefined) for (const index of tokens.keys()) if (index >= count) count = index + 1
  const optional = count > 0 ? optionalParams(owner) : undefined
  const properties = injectedProperties(cls)
  const deps: Dependency[] = new Array(count + properties.length)
  for (let index = 0; index < count; index++) {
    const declared = tokens?.get(index)
    const forward = isForwardRef(declared)
    const token = forward ? forwarded(declared, `${nameOf(cls, module)}: the forwardRef() of the constructor parameter at index [${index}]`) : declared ?? types?.[index]
    const isOptional = optional?.has(index) === true
    // An optional parameter typed by an interface (NestJS's pipes take their options so) gets undefined.
    if (isOptional && types !== undefined && declared === undefined && erased.has(token)) {
      deps[index] = dependency(index, undefined, token as Token, true, forward)
      continue
    }
    if (!isTokenValue(token)) throw new ERR_MISSING_METADATA(missingMetadata(cls, nameOf(cls, module), index, types !== undefined, token))
    deps[index] = dependency(index, undefined, token, isOptional, forward)
  }
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i]
    const forward = isForwardRef(property.token)
    const place = `the property ${JSON.stringify(String(property.key))}`
    const type: unknown = Reflect.getMetadata('design:type', cls.prototype, property.key)
    const token = forward ? forwarded(property.token as ForwardReference, `${nameOf(cls, module)}: the forwardRef() of ${place}`) : property.token ?? type
    if (!isTokenValue(token)) throw new ERR_MISSING_METADATA(missingPropertyType(cls, nameOf(cls, module), property.key, token, Reflect.hasMetadata('design:type', cls.prototype, property.key)))
    deps[count + i] = dependency(-1, property.key, token, property.optional, forward)
  }
  binding.deps = deps
  binding.params = count
}

function dependency (index: number, property: string | symbol | undefined, token: Token, optional: boolean, forward: boolean): Dependency {
  return { index, property, token, optional, forward, binding: undefined, builtin: undefined }
}

// `CatsService in module CatsModule`, for messages.
function nameOf (cls: Function, module: string): string {
  return `${cls.name} in module ${module}`
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

// Whether any decorator was applied to the class: the plugin's class declarations (@Controller())
// are kept on the class, the others (@Injectable(), @Module(), @Catch(), ...) as metadata.
function isDecorated (cls: Function): boolean {
  return Reflect.getOwnMetadataKeys(cls).length > 0 || ownDeclaration(cls, kController) !== undefined
}

function missingMetadata (cls: Function, name: string, index: number, hasTypes: boolean, type: unknown): string {
  // Compilers record parameter types only for decorated classes: an undecorated one is the cause whatever the compiler.
  const owner = constructorOwner(cls)
  if (!hasTypes && !isDecorated(owner)) {
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
