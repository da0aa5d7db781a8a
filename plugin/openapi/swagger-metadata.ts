// The metadata keys @nestjs/swagger's decorators write, as its published DECORATORS constants
// name them. Plain strings: reading them loads nothing of @nestjs/swagger.
export const swaggerKeys = {
  operation: 'swagger/apiOperation',
  response: 'swagger/apiResponse',
  produces: 'swagger/apiProduces',
  consumes: 'swagger/apiConsumes',
  tags: 'swagger/apiUseTags',
  parameters: 'swagger/apiParameters',
  headers: 'swagger/apiHeaders',
  properties: 'swagger/apiModelProperties',
  propertyList: 'swagger/apiModelPropertiesArray',
  security: 'swagger/apiSecurity',
  excludeEndpoint: 'swagger/apiExcludeEndpoint',
  excludeController: 'swagger/apiExcludeController',
  extraModels: 'swagger/apiExtraModels'
} as const

type Reader = (key: string, target: object, property?: string | symbol) => any
type KeysReader = (target: object) => unknown[]

// reflect-metadata's global functions, when something loaded it (NestJS's decorators need it).
const reflect = Reflect as unknown as { getMetadata?: Reader, getMetadataKeys?: KeysReader }

/** A @nestjs/swagger key's value on a class, a method or a property (inherited ones included). */
export function swaggerMetadata<T = any> (key: string, target: object, property?: string | symbol): T | undefined {
  return typeof reflect.getMetadata === 'function' ? reflect.getMetadata(key, target, property) : undefined
}

/** Whether one of @nestjs/swagger's decorators was applied to a class, a method or a class's properties. */
export function hasSwaggerMetadata (target: unknown): boolean {
  if (typeof reflect.getMetadataKeys !== 'function' || target === null || (typeof target !== 'object' && typeof target !== 'function')) return false
  const keys = reflect.getMetadataKeys(target)
  for (let i = 0; i < keys.length; i++) if (typeof keys[i] === 'string' && (keys[i] as string).startsWith('swagger/')) return true
  return false
}
