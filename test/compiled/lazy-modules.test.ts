// LazyModuleLoader on tsc output (injection by type), compared with NestJS's own for what both do:
// the same ModuleRef for a module loaded twice, imports of modules the application built reused,
// global modules seen. Where they differ on purpose (hooks, controllers) see docs/migration.md.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Global, Injectable, Module, type OnModuleInit } from '@nestjs/common'
import { LazyModuleLoader as NestLazyModuleLoader, NestFactory } from '@nestjs/core'
import { LazyModuleLoader } from 'fastify-decorator-plugin'
import { build } from '../helpers/app.js'

@Injectable() class Clock { readonly started = Symbol('clock') }
@Module({ providers: [Clock], exports: [Clock] })
class ClockModule {}

@Injectable() class Settings { readonly region = 'eu' }
@Global() @Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

@Injectable()
class Billing implements OnModuleInit {
  initialized = false
  constructor (readonly clock: Clock, readonly settings: Settings) {}
  onModuleInit () { this.initialized = true }
}
@Module({ imports: [ClockModule], providers: [Billing] })
class BillingModule {}

@Injectable()
class NestShell {
  constructor (readonly nestLoader: NestLazyModuleLoader, readonly clock: Clock) {}
}
@Module({ imports: [ClockModule, SettingsModule], providers: [NestShell] })
class ShellModule {}

// With the plugin's class injected too, which NestJS would not know.
@Injectable()
class Shell extends NestShell {
  constructor (nestLoader: NestLazyModuleLoader, clock: Clock, readonly loader: LazyModuleLoader) { super(nestLoader, clock) }
}
@Module({ imports: [ClockModule, SettingsModule], providers: [Shell] })
class PluginShellModule {}

// What both give: [the ModuleRef twice the same, the imported module's instance reused, the global provider seen].
async function loadTwice (loader: { load: (fn: () => unknown) => Promise<any> }, shell: NestShell) {
  const first = await loader.load(() => BillingModule)
  const again = await loader.load(() => BillingModule)
  const billing = first.get(Billing)
  return { billing, answers: [first === again, billing.clock === shell.clock, billing.settings.region] }
}

test('LazyModuleLoader injected by type (@nestjs/core\'s and the plugin\'s): a module loaded at run time, as NestJS loads it', async (t) => {
  const nest = await NestFactory.createApplicationContext(ShellModule, { logger: false })
  t.after(() => nest.close())
  const nestShell = nest.get(NestShell)
  const expected = await loadTwice(nestShell.nestLoader as any, nestShell)
  assert.deepEqual(expected.answers, [true, true, 'eu'])
  assert.equal(expected.billing.initialized, false, 'NestJS calls no hook of a lazily loaded module')

  const app = await build(t, PluginShellModule)
  const shell = app.container.get(Shell)
  assert.equal(shell.nestLoader, shell.loader, '@nestjs/core\'s class resolves to the plugin\'s')
  const actual = await loadTwice(shell.nestLoader as any, shell)
  assert.deepEqual(actual.answers, expected.answers)
  assert.equal(actual.billing.initialized, true, 'the plugin runs its onModuleInit() (docs/migration.md)')
})
