// Type tests for modules, providers, injection and the container; each @ts-expect-error must be an error.
import Fastify, { type FastifyInstance } from 'fastify'
import {
  decoratorPlugin, Module, Global, Injectable, Inject, Optional, Scope, REQUEST, FASTIFY, Reflector,
  type Provider, type OnModuleInit, type OnModuleDestroy, type InjectionToken, type DecoratorPluginOptions
} from '../../plugin/index.js'

@Injectable()
class Cats { all (): string[] { return [] } }

@Injectable({ scope: Scope.REQUEST })
class PerRequest { constructor (@Inject(REQUEST) readonly request: unknown, @Inject(FASTIFY) readonly fastify: FastifyInstance) {} }

// @ts-expect-error: scope is one of DEFAULT, REQUEST, TRANSIENT
@Injectable({ scope: 'SINGLETON' })
class BadScope {}
void BadScope

class WithHooks implements OnModuleInit, OnModuleDestroy {
  async onModuleInit () {}
  onModuleDestroy () {}
  constructor (@Optional() @Inject('maybe') readonly maybe?: string, @Inject(Reflector) readonly reflector?: Reflector) {}
}

const TOKEN = Symbol('token')
const providers: Provider[] = [
  Cats,
  { provide: 'cats', useClass: Cats },
  { provide: TOKEN, useValue: 1 },
  { provide: 'conn', useFactory: async (cats: Cats) => cats.all(), inject: [Cats, { token: 'maybe', optional: true }] },
  { provide: 'alias', useExisting: 'cats' },
  { provide: 'scoped', useClass: Cats, scope: Scope.TRANSIENT }
]

// @ts-expect-error: a provider object needs one of useClass, useValue, useFactory, useExisting
const noKind: Provider = { provide: 'x' }
// @ts-expect-error: a token is a class, string or symbol
const numberToken: Provider = { provide: 1, useValue: 1 }
// @ts-expect-error: inject entries are tokens or { token, optional }
const badInject: Provider = { provide: 'x', useFactory: () => 1, inject: [1] }
void [noKind, numberToken, badInject]

@Global()
@Module({ providers, exports: [Cats, 'cats', TOKEN] })
class CatsModule {}

// @ts-expect-error: imports is an array of module classes
@Module({ imports: CatsModule })
class BadImports {}
void BadImports

// @ts-expect-error: unknown keys are rejected
@Module({ provider: [Cats] })
class Misspelled {}
void Misspelled

@Module({ imports: [CatsModule], providers: [PerRequest, WithHooks] })
class AppModule {}

const app = Fastify()
await app.register(decoratorPlugin, { module: AppModule })
const options: DecoratorPluginOptions = { module: AppModule, overrides: [{ provide: Cats, useValue: new Cats() }] }
void options

// container.get gives the instance type of a class token; other tokens are typed by the caller.
const cats: Cats = app.container.get(Cats)
const names: string[] = app.container.get(Cats).all()
const value: number = app.container.get<number>(TOKEN)
const token: InjectionToken = 'cats'
void [cats, names, value, token]
// @ts-expect-error: get returns the instance, not a promise
void app.container.get(Cats).then
const scoped: Promise<PerRequest> = app.container.resolve(PerRequest)
app.get('/x', async (request) => (await app.container.resolve(PerRequest, request)).request)
void scoped
// @ts-expect-error: the request argument is a Fastify request
app.container.resolve(PerRequest, { headers: {} })
// @ts-expect-error: a number is not a token
app.container.get(42)

// @ts-expect-error: @Inject takes a token (or forwardRef), not a number
class NumberToken { constructor (@Inject(42) readonly x: unknown) {} }
void NumberToken
