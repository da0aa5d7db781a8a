import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as nest from '@nestjs/common'
import * as core from '@nestjs/core'
import { adoptNestMetadata } from '../../plugin/nest/adopt.js'
import { injectTokens, injectableOptions } from '../../plugin/decorators/injectable.js'
import { isModule, moduleMetadata } from '../../plugin/decorators/module.js'
import { controllerDefinition, routeDefinitions } from '../../plugin/decorators/controller.js'
import { scanModules } from '../../plugin/di/scanner.js'
import { scanControllers } from '../../plugin/routing/controller-scan.js'
import { catchTypes } from '../../plugin/decorators/enhancers.js'
import { kInternal } from '../../plugin/di/internal-options.js'
import { Controller, Get, Inject, Module, Param, UseGuards } from '../../plugin/index.js'

// The walk that reads NestJS metadata, on its own: what it reaches, and the @nestjs/core
// classes it reports for the caller to tell.

test('the walk reaches the lists of a dynamic module object, and what the testing entry puts in place of a module', async () => {
  @nest.Injectable({ scope: nest.Scope.TRANSIENT })
  class FromDynamic { constructor (@nest.Inject('OPTIONS') readonly options: unknown) {} }
  @nest.Controller('dynamic')
  class DynamicController {}
  class BareDynamicModule {}
  @nest.Injectable()
  class FromReplacement {}
  @nest.Module({ providers: [FromReplacement] })
  class Replacement {}
  @nest.Module({ imports: [{ module: BareDynamicModule, providers: [FromDynamic], controllers: [DynamicController] }] as any })
  class Root {}
  await adoptNestMetadata({ module: Root, [kInternal]: { replaceModules: new Map([[BareDynamicModule, Replacement]]) } } as any)
  assert.equal(injectTokens(FromDynamic).get(0), 'OPTIONS')
  assert.deepEqual(injectableOptions(FromDynamic), { scope: 'TRANSIENT' })
  assert.equal(controllerDefinition(DynamicController)?.path, 'dynamic')
  assert.ok(isModule(BareDynamicModule))
  assert.deepEqual(moduleMetadata(BareDynamicModule), {})
  assert.deepEqual(injectableOptions(FromReplacement), {})
})

test('the walk reads global enhancers, overrides and filters given as instances, and names each @nestjs/core candidate\'s consumer', async () => {
  @nest.Catch(nest.NotFoundException)
  class NotFoundFilter { catch () {} }
  @nest.Injectable()
  class GlobalGuard { constructor (@nest.Inject(core.Reflector) readonly reflector: unknown) {} canActivate () { return true } }
  @nest.Injectable()
  class Replacement { constructor (@nest.Inject(core.HttpAdapterHost) readonly host: unknown) {} }
  @nest.Module({})
  class Root {}
  const { candidates, nestControllers } = await adoptNestMetadata({ module: Root, globalGuards: [GlobalGuard], globalFilters: [new NotFoundFilter()], overrides: [{ provide: 'X', useClass: Replacement }] } as any)
  assert.deepEqual(catchTypes(new NotFoundFilter()), [nest.NotFoundException])
  assert.deepEqual([...candidates], [[core.Reflector, 'GlobalGuard'], [core.HttpAdapterHost, 'Replacement']])
  assert.equal(nestControllers, false, 'no NestJS controller: @nestjs/common\'s StreamableFile is left alone')
})

test('the enhancers and parameter pipes of each handler of a plugin controller, own or inherited, are read once the controllers are scanned', async () => {
  @nest.Injectable()
  class OwnGuard { constructor (@nest.Inject(core.Reflector) readonly reflector: unknown) {} canActivate () { return true } }
  @nest.Injectable()
  class InheritedGuard { constructor (@nest.Inject(core.HttpAdapterHost) readonly host: unknown) {} canActivate () { return true } }
  @nest.Injectable()
  class ParamPipe { constructor (@nest.Inject('PIPE_OPTIONS') readonly options: unknown) {} transform (value: unknown) { return value } }
  class Base {
    @Get('inherited') @UseGuards(InheritedGuard) inherited () {}
  }
  @Controller('handlers')
  class HandlersController extends Base {
    @Get() first () {}
    helper () {}
    @Get('guarded') @UseGuards(OwnGuard) guarded () {}
    @Get(':id') piped (@Param('id', ParamPipe) id: string) { return id }
  }
  // A handler an accessor gives: its function is known only once the getter has run.
  @nest.Injectable()
  class AccessorGuard { constructor (@nest.Inject(core.ModuleRef) readonly ref: unknown) {} canActivate () { return true } }
  @Controller('accessor')
  class AccessorController {
    @Get() first () {}
  }
  const viaGetter = function viaGetter () {}
  UseGuards(AccessorGuard)(AccessorController.prototype, 'viaGetter', { value: viaGetter })
  Get('via-getter')(AccessorController.prototype, 'viaGetter', { value: viaGetter })
  Object.defineProperty(AccessorController.prototype, 'viaGetter', { get: () => viaGetter })
  @Module({ controllers: [HandlersController, AccessorController] })
  class Root {}
  const walk = await adoptNestMetadata({ module: Root } as any)
  // The walk leaves plugin controllers to the scan, which lists what they use.
  assert.deepEqual([...walk.candidates], [])
  assert.equal(injectTokens(ParamPipe).size, 0)
  walk.readEnhancers(scanControllers((await scanModules(Root)).root))
  assert.deepEqual([...walk.candidates], [[core.HttpAdapterHost, 'InheritedGuard'], [core.Reflector, 'OwnGuard'], [core.ModuleRef, 'AccessorGuard']])
  assert.equal(injectTokens(ParamPipe).get(0), 'PIPE_OPTIONS')
})

test('the walk reads a NestJS controller whole, and of a plugin controller only what it injects', async () => {
  @nest.Injectable()
  class NestGuard { constructor (@nest.Inject(core.Reflector) readonly reflector: unknown) {} canActivate () { return true } }
  @nest.Controller('nest')
  class NestController { @nest.Get(':id') @nest.UseGuards(NestGuard) find (@nest.Param('id') id: string) { return id } }
  // A plugin controller injecting @nestjs/core's ModuleRef: a token to tell before anything is bound.
  @Controller('injects')
  class InjectingController {
    constructor (@Inject(core.ModuleRef) readonly ref: unknown) {}
    @Get() list () {}
  }
  // NestJS's decorators on a method of a plugin controller: read once the scan finds them.
  @Controller('mixed')
  class MixedController {
    @Get() list () {}
    @nest.Get('nest') nestRoute () {}
  }
  @Module({ controllers: [NestController, InjectingController, MixedController] })
  class Root {}
  const walk = await adoptNestMetadata({ module: Root } as any)
  assert.equal(walk.nestControllers, true)
  assert.equal(controllerDefinition(NestController)?.path, 'nest')
  assert.deepEqual(routeDefinitions(NestController).map((route) => route.path), [':id'])
  assert.deepEqual([...walk.candidates], [[core.ModuleRef, 'InjectingController']])
  assert.deepEqual(routeDefinitions(MixedController).map((route) => route.path), [''])
})
