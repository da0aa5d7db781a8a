// The main entry: every public name is listed here, and test/public-surface.test.ts pins them.
// reflect-metadata's global types for the package's users, as its import used to give them.
/// <reference types="reflect-metadata" preserve="true" />
import * as errorClasses from './util/errors.js'
// reflect-metadata itself is loaded by util/metadata.ts, before any decorator runs.
import './util/metadata.js'

export { decoratorPlugin } from './plugin.js'
export { Module, Global } from './decorators/module.js'
export { Injectable, Inject, Optional, Scope } from './decorators/injectable.js'
export { forwardRef } from './decorators/forward-ref.js'
export { ModuleRef } from './di/module-ref.js'
export { LazyModuleLoader } from './di/lazy-module-loader.js'
export { ApplicationConfig } from './di/application-config.js'
export { DiscoveryModule, DiscoveryService } from './di/discovery.js'
export { MetadataScanner } from './di/metadata-scanner.js'
export { ModulesContainer } from './di/modules-container.js'
export { ContextIdFactory } from './decorators/context-id.js'
export { ConfigurableModuleBuilder } from './decorators/configurable-module.js'
export { RouterModule } from './decorators/router-module.js'
export { REQUEST, FASTIFY, VERSION_NEUTRAL, INQUIRER, APP_GUARD, APP_PIPE, APP_INTERCEPTOR, APP_FILTER } from './util/tokens.js'
export { Controller, Get, Post, Put, Patch, Delete, Options, Head, All } from './decorators/controller.js'
export { Param, Query, Body, Headers, Req, Res, Request, Response, Ip, RawBody, Cookies, SignedCookies, Session, createParamDecorator } from './decorators/params.js'
export { HttpCode, Header, Redirect, Render } from './decorators/http.js'
export { Sse } from './decorators/sse.js'
export { HttpStatus } from './common/http-status.js'
export { StreamableFile } from './common/streamable-file.js'
export { HostParam } from './decorators/host.js'
export { UseGuards, UsePipes, UseInterceptors, UseFilters, Catch } from './decorators/enhancers.js'
export { SetMetadata, Reflector } from './decorators/reflector.js'
export { Version } from './decorators/version.js'
export { RouteSchema, RouteConfig, RouteConstraints } from './decorators/route-options.js'
export { Hook } from './routing/hooks.js'
export { UploadedFile, UploadedFiles } from './decorators/uploads.js'
export {
  HttpException, BadRequestException, UnauthorizedException, ForbiddenException, NotFoundException,
  MethodNotAllowedException, NotAcceptableException, RequestTimeoutException, ConflictException, GoneException,
  PreconditionFailedException, PayloadTooLargeException, UnsupportedMediaTypeException, ImATeapotException,
  MisdirectedException, UnprocessableEntityException, TooManyRequestsException, InternalServerErrorException,
  NotImplementedException, BadGatewayException, ServiceUnavailableException, GatewayTimeoutException,
  HttpVersionNotSupportedException
} from './common/exceptions.js'
export type { HttpExceptionClass } from './common/exceptions.js'
export { ParseIntPipe, ParseFloatPipe, ParseBoolPipe, ParseUUIDPipe, ParseEnumPipe, ParseArrayPipe, DefaultValuePipe } from './validation/pipes.js'
export { ValidationPipe } from './validation/validation-pipe.js'
export { ClassSerializerInterceptor, SerializeOptions } from './validation/class-serializer.js'
export type { ClassSerializerInterceptorOptions } from './validation/class-serializer.js'
export { FastifyAdapter } from './common/fastify-adapter.js'
export { VersioningType } from './common/versioning-type.js'
export { RequestMethod } from './common/request-method.js'
export { Logger } from './extras/logger.js'
export { WebSocketGateway, SubscribeMessage, MessageBody, ConnectedSocket, WebSocketServer, Ack } from './websockets/decorators.js'
export { WsException } from './websockets/ws-exception.js'
export { FastifyWsAdapter } from './websockets/ws-adapter.js'

/**
 * The classes of the errors the plugin raises, by name (errors.ts holds nothing else); each
 * instance has its `FDP_ERR_*` `code`.
 */
export const errors = Object.freeze({ ...errorClasses })

export type {
  AbstractType, ArgumentMetadata, ArgumentsHost, BeforeApplicationShutdown, CallHandler, CanActivate, ClassProvider,
  ConfigurableModuleAsyncOptions, ConfigurableModuleBuilderOptions, ConfigurableModuleCls, ConfigurableModuleHost,
  ConfigurableModuleOptionsFactory, Container, ContextId, ContextType, ControllerOptions, CreateDecoratorOptions,
  CustomDecorator, DecoratorPluginOptions, DiscoverableDecorator, DiscoveryOptions, DynamicModule, EnhancerEntry, ExceptionFilter, ExecutionContext,
  ExcludedRoute, ExistingProvider, FactoryProvider, GlobalPrefixOptions, InterceptorLike, IntrospectionResult, MessageEvent, NestScopeValue, RpcArgumentsHost, WsArgumentsHost, ForwardReference, HandleResult, HookName, HttpArgumentsHost,
  ContextInstance, HttpExceptionOptions, InjectableOptions, InjectionToken, InstanceWrapper, LazyModuleLoaderLoadOptions, ModuleImport, ModuleMetadata, ModulePlugin,
  ModuleRefGetOptions, ModuleWrapper, NestInterceptor, ObservableLike, OnApplicationBootstrap, OnApplicationShutdown,
  OnModuleDestroy, OnModuleInit, OperatorLike, OptionalFactoryDependency, ParseArrayOptions, ParsePipeOptions,
  Pipeable, PipeTransform, PrefixTrailingSlash, Provider, ReflectableDecorator, RequestUser,
  RouteConfigOptions, RouteConstraintsOptions, RouteSchemaOptions, Routes, RouteTree, ScopeName, SseOptions, StreamableFileOptions, Type,
  UploadedFileInfo, UploadedFileOptions, ValidationError, ValidationPipeOptions, ValueProvider, VersioningOptions,
  VersionValue
} from '../types/index.js'
export type { BodyParser, BodyParserOptions, FastifyPlugin, HttpAdapter, INestApplication, INestApplicationContext, NestApplicationOptions, NestFastifyApplication } from '../types/application.js'
export type { MiddlewareConfigProxy, MiddlewareConsumer, NestMiddleware, NestModule } from '../types/middleware.js'
export type { RouteInfo } from '../types/index.js'
export type { LoggerService, LogLevel } from '../types/logger.js'
export type { GatewayMetadata, OnGatewayConnection, OnGatewayDisconnect, OnGatewayInit, WebSocketAdapter, WsMessageHandler, WsResponse } from '../types/websockets.js'
