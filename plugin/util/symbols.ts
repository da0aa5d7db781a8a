// Metadata keys, written by the decorators and read at registration. A process may load both
// builds of the package (a CommonJS test helper beside ES module app code): registered symbols
// let one build read what the other's decorators wrote.
const key = (name: string): symbol => Symbol.for(`fastify-decorator-plugin.${name}`)
export const kModule = key('module')
export const kGlobal = key('global')
export const kInjectable = key('injectable')
export const kInjectTokens = key('injectTokens')
export const kOptional = key('optional')
export const kInjectProperties = key('injectProperties')
export const kController = key('controller')
export const kRoutes = key('routes')
export const kParams = key('params')
export const kHttpCode = key('httpCode')
export const kHeaders = key('headers')
export const kRedirect = key('redirect')
export const kRender = key('render')
export const kSse = key('sse')
export const kGuards = key('guards')
export const kPipes = key('pipes')
export const kInterceptors = key('interceptors')
export const kFilters = key('filters')
export const kCatch = key('catch')
export const kVersion = key('version')
export const kRouteSchema = key('routeSchema')
export const kRouteConfig = key('routeConfig')
export const kRouteConstraints = key('routeConstraints')
export const kHooks = key('hooks')
// The token of RouterModule.register()'s routes (one for both builds, as the keys above).
export const kRouterRoutes = key('routerRoutes')
// The set of those keys some decorator has written in this process (metadata.ts).
export const kWrittenKeys = key('writtenKeys')
// Marks the `container` decoration as this plugin's.
export const kApplication = key('application')
// Names the built-in token a class stands for (Reflector), whichever build it comes from.
export const kBuiltinToken = key('builtinToken')
// The name of one of the package's exception classes, whichever build it comes from.
export const kExceptionClass = key('exceptionClass')
// Context ids cross builds: a request's context and its request, and the brand of a created one.
export const kRequestContext = key('requestContext')
export const kContextRequest = key('contextRequest')
export const kCreatedContext = key('createdContext')
// A brand on StreamableFile's prototype: either build knows the other's files.
export const kStreamableFile = key('streamableFile')

// Slots of a running application, written and read by the build that registered it.
export const kRequestScope = Symbol('fdp.requestScope')
export const kRawBody = Symbol('fdp.rawBody')
export const kRouteInfo = Symbol('fdp.routeInfo')
export const kAnswer = Symbol('fdp.answer')
export const kDtoCompile = Symbol('fdp.dtoCompile')
export const kValidateSync = Symbol('fdp.validateSync')
// WebSocket gateways: the class's port and options, a handler's event, its parameters, the server properties.
export const kGateway = key('gateway')
export const kMessage = key('message')
export const kWsParams = key('wsParams')
export const kWsServer = key('wsServer')
