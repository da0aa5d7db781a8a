import type { ControllerScan, HandlerScan } from './controller-scan.js'
import { hasSwaggerMetadata } from '../openapi/swagger-metadata.js'
import { ModelSchemas } from '../openapi/model-schemas.js'
import { documentRoute } from '../openapi/route-document.js'
import { swaggerTransform } from '../openapi/swagger-transform.js'

/**
 * The models of an application documented with @nestjs/swagger's decorators: only when
 * @fastify/swagger is there to read them and a controller, a handler or a DTO it takes carries
 * one (its metadata keys are plain strings: nothing of @nestjs/swagger is loaded to look).
 * Such an application is documented as NestJS documents it, every controller of it.
 */
export function documentedModels (controllers: ControllerScan[], swagger: boolean): ModelSchemas | undefined {
  if (!swagger) return undefined
  for (let i = 0; i < controllers.length; i++) {
    const { cls, handlers } = controllers[i]
    if (hasSwaggerMetadata(cls)) return new ModelSchemas()
    for (let h = 0; h < handlers.length; h++) if (documentsSomething(handlers[h])) return new ModelSchemas()
  }
  return undefined
}

function documentsSomething ({ method, paramTypes }: HandlerScan): boolean {
  if (hasSwaggerMetadata(method)) return true
  if (paramTypes === undefined) return false
  for (let i = 0; i < paramTypes.length; i++) {
    const type = paramTypes[i]
    if (typeof type === 'function' && type.prototype !== undefined && hasSwaggerMetadata(type.prototype)) return true
  }
  return false
}

/** The handler's `config.swaggerTransform`, read once at registration. */
export function nestSwaggerTransform (cls: Function, handler: HandlerScan, models: ModelSchemas): ReturnType<typeof swaggerTransform> {
  const { key, method, params, paramTypes, status } = handler
  return swaggerTransform(documentRoute({ cls, key, method, params, paramTypes, status }, models), models)
}
