/**
 * Gives a handler the parameter types tsc would emit with emitDecoratorMetadata, for the test
 * runner that emits none: ValidationPipe reads the DTO class from them.
 */
export function paramTypes (controller: Function, method: string, types: unknown[]): void {
  Reflect.defineMetadata('design:paramtypes', types, controller.prototype, method)
}

/**
 * A property's design type as tsc would emit it with emitDecoratorMetadata, for the test runner
 * that emits none: implicit conversion reads it.
 */
export function designType (type: unknown): PropertyDecorator {
  return (target, property) => { Reflect.defineMetadata('design:type', type, target, property) }
}
