import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FastifyRequest } from 'fastify'
import {
  Module, Controller, Get, Injectable, Inject, Optional, Scope, REQUEST, INQUIRER, ModuleRef
} from '../../plugin/index.js'
import { build } from '../helpers/app.js'
import { registrationError } from '../helpers/registration.js'

// NestJS's documented example: a transient logger that names the class it logs for.
@Injectable({ scope: Scope.TRANSIENT })
class HelloService {
  constructor (@Inject(INQUIRER) private readonly parentClass: object | undefined) {}
  sayHello (message: string) { return `${this.parentClass?.constructor?.name ?? 'nobody'}: ${message}` }
}

test('a transient provider injecting INQUIRER gets an object of the class it is built for', async (t) => {
  @Injectable()
  class AppService {
    constructor (@Inject(HelloService) readonly helloService: HelloService) {}
    getRoot () { return this.helloService.sayHello('My name is getRoot') }
  }
  @Controller('hello')
  class HelloController {
    constructor (@Inject(HelloService) private readonly helloService: HelloService) {}
    @Get() get () { return this.helloService.sayHello('hi') }
  }
  @Module({ controllers: [HelloController], providers: [HelloService, AppService] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal(app.container.get(AppService).getRoot(), 'AppService: My name is getRoot')
  assert.equal((await app.inject('/hello')).body, 'HelloController: hi')
})

test('INQUIRER by property injection, and for a transient inside a request-scoped consumer', async (t) => {
  @Injectable({ scope: Scope.TRANSIENT })
  class RequestLogger {
    @Inject(INQUIRER) readonly inquirer: any = null
    constructor (@Inject(REQUEST) private readonly request: FastifyRequest) {}
    line (message: string) { return `[${this.inquirer.constructor.feature as string} ${this.request.url}] ${message}` }
  }
  @Injectable({ scope: Scope.REQUEST })
  class HelloRequestService {
    static feature = 'request'
    constructor (@Inject(RequestLogger) readonly logger: RequestLogger) {}
    greeting () { return this.logger.line('Hello request!') }
  }
  @Controller('hello')
  class HelloController {
    constructor (@Inject(HelloRequestService) private readonly service: HelloRequestService) {}
    @Get() get () { return this.service.greeting() }
  }
  @Module({ controllers: [HelloController], providers: [RequestLogger, HelloRequestService] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.equal((await app.inject('/hello')).body, '[request /hello] Hello request!')
  assert.equal((await app.inject('/hello?x=1')).body, '[request /hello?x=1] Hello request!')
})

test('the inquirer is an instance of its class, and a transient resolved with no consumer has none', async (t) => {
  let inquirer: unknown
  @Injectable({ scope: Scope.TRANSIENT })
  class Spy { constructor (@Inject(INQUIRER) @Optional() parent: unknown) { inquirer = parent } }
  @Injectable()
  class Consumer { constructor (@Inject(Spy) readonly spy: Spy) {} }
  @Module({ providers: [Spy, Consumer, HelloService] })
  class AppModule {}

  const app = await build(t, AppModule)
  assert.ok(inquirer instanceof Consumer)
  assert.equal((await app.container.get(ModuleRef).resolve(HelloService)).sayHello('x'), 'nobody: x')
  assert.equal((await app.container.resolve(HelloService)).sayHello('y'), 'nobody: y')
})

test('a transient built for another transient gets, as INQUIRER, the consumer that started the chain, as in NestJS 12', async (t) => {
  @Injectable({ scope: Scope.TRANSIENT })
  class Formatter { constructor (@Inject(INQUIRER) readonly parent: object) {} }
  @Injectable({ scope: Scope.TRANSIENT })
  class ChildLogger { constructor (@Inject(Formatter) readonly formatter: Formatter, @Inject(INQUIRER) readonly parent: object) {} }
  @Injectable()
  class Cats { constructor (@Inject(ChildLogger) readonly logger: ChildLogger) {} }
  @Injectable()
  class Dogs { constructor (@Inject(ChildLogger) readonly logger: ChildLogger) {} }
  @Injectable({ scope: Scope.REQUEST })
  class Audit { constructor (@Inject(ChildLogger) readonly logger: ChildLogger) {} }
  @Controller('audit')
  class AuditController {
    constructor (@Inject(Audit) private readonly audit: Audit) {}
    @Get() get () { return [this.audit.logger.parent.constructor.name, this.audit.logger.formatter.parent.constructor.name] }
  }
  @Module({ controllers: [AuditController], providers: [Formatter, ChildLogger, Cats, Dogs, Audit] })
  class AppModule {}

  const app = await build(t, AppModule)
  const cats = app.container.get(Cats)
  const dogs = app.container.get(Dogs)
  assert.ok(cats.logger.parent instanceof Cats)
  assert.ok(cats.logger.formatter.parent instanceof Cats)
  assert.ok(dogs.logger.parent instanceof Dogs)
  assert.ok(dogs.logger.formatter.parent instanceof Dogs)
  assert.notEqual(cats.logger.formatter, dogs.logger.formatter, 'each consumer gets its own chain')
  assert.deepEqual((await app.inject('/audit')).json(), ['Audit', 'Audit'])
})

test('INQUIRER in a singleton fails, naming it and the fix', async () => {
  @Injectable()
  class Logger { constructor (@Inject(INQUIRER) readonly parent: unknown) {} }
  @Module({ providers: [Logger] })
  class AppModule {}
  const error = await registrationError({ module: AppModule })
  assert.equal(error.code, 'FDP_ERR_INVALID_PROVIDER')
  assert.equal(error.message, 'Logger in module AppModule injects INQUIRER (the constructor parameter at index [0]), but is neither transient nor request-scoped: ' +
    'a singleton is built for no one consumer. Add @Injectable({ scope: Scope.TRANSIENT }) (or Scope.REQUEST) to Logger.')
})

test('a request-scoped provider gets as INQUIRER the consumer that first asks for it in the request, undefined when resolved directly', async (t) => {
  // NestJS's inject-inquirer spec: a request-scoped service and a transient logger each name their consumer.
  @Injectable({ scope: Scope.REQUEST })
  class RequestLogger { constructor (@Inject(INQUIRER) readonly parent: object | undefined) {} }
  @Injectable({ scope: Scope.TRANSIENT })
  class TransientLogger { constructor (@Inject(INQUIRER) readonly parent: object | undefined) {} }
  @Injectable({ scope: Scope.REQUEST })
  class HelloService {
    constructor (@Inject(RequestLogger) readonly log: RequestLogger, @Inject(TransientLogger) readonly transient: TransientLogger) {}
  }
  @Controller('hello')
  class HelloController {
    constructor (@Inject(HelloService) readonly hello: HelloService, @Inject(RequestLogger) readonly log: RequestLogger) {}
    @Get() get () {
      return { service: this.hello.log.parent?.constructor.name, transient: this.hello.transient.parent?.constructor.name, shared: this.log === this.hello.log }
    }
  }
  @Module({ controllers: [HelloController], providers: [HelloService, RequestLogger, TransientLogger] })
  class AppModule {}
  const app = await build(t, AppModule)
  // The controller is built first and asks for HelloService before RequestLogger: HelloService asks for it first.
  assert.deepEqual((await app.inject('/hello')).json(), { service: 'HelloService', transient: 'HelloService', shared: true })
  const direct = await app.container.get(ModuleRef).resolve(RequestLogger)
  assert.equal((direct as RequestLogger).parent, undefined)
})
