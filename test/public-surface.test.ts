// The package's public surface, pinned: adding or removing an export is a deliberate change,
// made here and recorded in CHANGELOG.md, never a side effect of moving code around.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import * as main from '../plugin/index.js'
import * as testing from '../plugin/testing.js'

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

const mainExports = [
  'APP_FILTER',
  'APP_GUARD',
  'APP_INTERCEPTOR',
  'APP_PIPE',
  'Ack',
  'All',
  'ApplicationConfig',
  'BadGatewayException',
  'BadRequestException',
  'Body',
  'Catch',
  'ClassSerializerInterceptor',
  'ConfigurableModuleBuilder',
  'ConflictException',
  'ConnectedSocket',
  'ContextIdFactory',
  'Controller',
  'Cookies',
  'DefaultValuePipe',
  'Delete',
  'DiscoveryModule',
  'DiscoveryService',
  'FASTIFY',
  'FastifyAdapter',
  'FastifyWsAdapter',
  'ForbiddenException',
  'GatewayTimeoutException',
  'Get',
  'Global',
  'GoneException',
  'Head',
  'Header',
  'Headers',
  'Hook',
  'HostParam',
  'HttpCode',
  'HttpException',
  'HttpStatus',
  'HttpVersionNotSupportedException',
  'INQUIRER',
  'ImATeapotException',
  'Inject',
  'Injectable',
  'InternalServerErrorException',
  'Ip',
  'LazyModuleLoader',
  'Logger',
  'MessageBody',
  'MetadataScanner',
  'MethodNotAllowedException',
  'MisdirectedException',
  'Module',
  'ModuleRef',
  'ModulesContainer',
  'NotAcceptableException',
  'NotFoundException',
  'NotImplementedException',
  'Optional',
  'Options',
  'Param',
  'ParseArrayPipe',
  'ParseBoolPipe',
  'ParseEnumPipe',
  'ParseFloatPipe',
  'ParseIntPipe',
  'ParseUUIDPipe',
  'Patch',
  'PayloadTooLargeException',
  'Post',
  'PreconditionFailedException',
  'Put',
  'Query',
  'REQUEST',
  'RawBody',
  'Redirect',
  'Reflector',
  'Render',
  'Req',
  'Request',
  'RequestMethod',
  'RequestTimeoutException',
  'Res',
  'Response',
  'RouteConfig',
  'RouteConstraints',
  'RouteSchema',
  'RouterModule',
  'Scope',
  'SerializeOptions',
  'ServiceUnavailableException',
  'Session',
  'SetMetadata',
  'SignedCookies',
  'Sse',
  'StreamableFile',
  'SubscribeMessage',
  'TooManyRequestsException',
  'UnauthorizedException',
  'UnprocessableEntityException',
  'UnsupportedMediaTypeException',
  'UploadedFile',
  'UploadedFiles',
  'UseFilters',
  'UseGuards',
  'UseInterceptors',
  'UsePipes',
  'VERSION_NEUTRAL',
  'ValidationPipe',
  'Version',
  'VersioningType',
  'WebSocketGateway',
  'WebSocketServer',
  'WsException',
  'createParamDecorator',
  'decoratorPlugin',
  'errors',
  'forwardRef'
]

const errorCodes = [
  'ERR_ALREADY_REGISTERED',
  'ERR_CIRCULAR_DEPENDENCY',
  'ERR_DUPLICATE_ROUTE',
  'ERR_DYNAMIC_MODULE_FAILED',
  'ERR_INVALID_DECLARATION',
  'ERR_INVALID_EVENT_STREAM',
  'ERR_INVALID_EXPORT',
  'ERR_INVALID_OPTIONS',
  'ERR_INVALID_PLUGIN',
  'ERR_INVALID_PROVIDER',
  'ERR_INVALID_REDIRECT',
  'ERR_LIFECYCLE_HOOK',
  'ERR_MISSING_METADATA',
  'ERR_MISSING_PEER',
  'ERR_NEST_UNSUPPORTED',
  'ERR_NOT_A_MODULE',
  'ERR_PROVIDER_FAILED',
  'ERR_SCOPED_PROVIDER',
  'ERR_UNDEFINED_FORWARD_REF',
  'ERR_UNKNOWN_DEPENDENCY',
  'ERR_UNKNOWN_OVERRIDE',
  'ERR_UNKNOWN_TOKEN',
  'ERR_VERSION_CONFLICT',
  'ERR_VIEW_NOT_CONFIGURED'
]

test('the main entry exports exactly the public names', () => {
  assert.deepEqual(Object.keys(main).sort(), mainExports)
})

test('errors holds exactly the error classes, each with its FDP_ERR_ code', () => {
  assert.deepEqual(Object.keys(main.errors).sort(), errorCodes)
  for (const name of errorCodes) {
    const ErrorClass = main.errors[name as keyof typeof main.errors]
    assert.equal(new ErrorClass('x').code, `FDP_${name}`)
  }
  assert.equal(Object.isFrozen(main.errors), true)
})

test('the testing entry exports exactly its public names', () => {
  assert.deepEqual(Object.keys(testing).sort(), ['Test', 'TestingModule', 'TestingModuleBuilder', 'createTestApp'])
})

test('the entry points name every export: no export * of a whole module', () => {
  for (const entry of ['plugin/index.ts', 'plugin/testing.ts']) {
    assert.doesNotMatch(read(entry), /export\s+(type\s+)?\*/, entry)
  }
})

// Names that types/ declares at the top level with `export`.
function declaredTypes (source: string): string[] {
  return [...source.matchAll(/^export (?:interface|type) ([A-Za-z]+)/gm)].map((match) => match[1]).sort()
}

// Names an entry re-exports from a module with `export type { ... } from '<module>'`.
function reexportedTypes (source: string, module: string): string[] {
  const lists = [...source.matchAll(/^export type \{([^}]*)\} from '([^']+)'/gm)].filter((match) => match[2] === module)
  return lists.flatMap((match) => match[1].split(',').map((name) => name.trim()).filter((name) => name !== '')).sort()
}

test('every public type in types/ is exported by its entry point', () => {
  // types/testing.ts belongs to the testing entry, every other file of types/ to the main one.
  const files = readdirSync(new URL('../types/', import.meta.url)).filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -3))
  for (const file of files) {
    const entry = file === 'testing' ? 'plugin/testing.ts' : 'plugin/index.ts'
    assert.deepEqual(reexportedTypes(read(entry), `../types/${file}.js`), declaredTypes(read(`types/${file}.ts`)), `types/${file}.ts`)
  }
})
