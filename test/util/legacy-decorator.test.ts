// Decorators compiled the TC39 way (no "experimentalDecorators") fail at once instead of registering nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import * as api from '../../plugin/index.js'
import { controllerDefinition, routeDefinitions } from '../../plugin/decorators/controller.js'

const {
  Module, Global, Injectable, Inject, Optional, Controller, Get, Post, Put, Patch, Delete, Options, Head, All,
  Param, Query, Body, Headers, Req, Res, Request, Response, Ip, RawBody, Cookies, SignedCookies, Session, createParamDecorator, HttpCode, Header, Redirect, Render, Sse, SerializeOptions,
  UseGuards, UsePipes, UseInterceptors, UseFilters, Catch, SetMetadata, Reflector, Version, RouteSchema, RouteConfig,
  RouteConstraints, Hook, UploadedFile, UploadedFiles, HostParam,
  WebSocketGateway, SubscribeMessage, MessageBody, ConnectedSocket, WebSocketServer, Ack
} = api

const guard = { canActivate: () => true }
const classContext = { kind: 'class', name: 'CatsController' }
const methodContext = { kind: 'method', name: 'findAll', static: false }
// TC39 has no parameter decorators: a parameter decorator put on a field (property injection) gets this.
const fieldContext = { kind: 'field', name: 'service', static: false }

// Every decorator factory the package exports, with the TC39 context it would meet.
const decorators: Record<string, Array<[Function, object]>> = {
  Module: [[Module({}), classContext]],
  Global: [[Global(), classContext]],
  Injectable: [[Injectable(), classContext]],
  Inject: [[Inject('token'), fieldContext]],
  Optional: [[Optional(), fieldContext]],
  Controller: [[Controller('cats'), classContext]],
  Get: [[Get(), methodContext]],
  Post: [[Post(), methodContext]],
  Put: [[Put(), methodContext]],
  Patch: [[Patch(), methodContext]],
  Delete: [[Delete(), methodContext]],
  Options: [[Options(), methodContext]],
  Head: [[Head(), methodContext]],
  All: [[All(), methodContext]],
  Param: [[Param('id'), fieldContext]],
  Query: [[Query(), fieldContext]],
  Body: [[Body(), fieldContext]],
  Headers: [[Headers('x'), fieldContext]],
  Req: [[Req(), fieldContext]],
  Res: [[Res(), fieldContext]],
  Request: [[Request(), fieldContext]],
  Response: [[Response(), fieldContext]],
  Ip: [[Ip(), fieldContext]],
  HostParam: [[HostParam('tenant'), fieldContext]],
  RawBody: [[RawBody(), fieldContext]],
  Cookies: [[Cookies('theme'), fieldContext]],
  SignedCookies: [[SignedCookies(), fieldContext]],
  Session: [[Session(), fieldContext]],
  HttpCode: [[HttpCode(204), methodContext]],
  Header: [[Header('x-a', 'b'), methodContext]],
  Redirect: [[Redirect('/'), methodContext]],
  Render: [[Render('index'), methodContext]],
  Sse: [[Sse('events'), methodContext]],
  UseGuards: [[UseGuards(guard), methodContext], [UseGuards(guard), classContext]],
  UsePipes: [[UsePipes({ transform: (v: unknown) => v }), methodContext]],
  UseInterceptors: [[UseInterceptors({ intercept: () => undefined }), methodContext]],
  UseFilters: [[UseFilters({ catch: () => undefined }), classContext]],
  Catch: [[Catch(), classContext]],
  SetMetadata: [[SetMetadata('roles', ['admin']), methodContext], [Reflector.createDecorator<string[]>({ key: 'roles' })(['admin']), classContext]],
  Version: [[Version('1'), methodContext]],
  RouteSchema: [[RouteSchema({}), methodContext]],
  SerializeOptions: [[SerializeOptions({}), methodContext]],
  RouteConfig: [[RouteConfig({}), methodContext]],
  RouteConstraints: [[RouteConstraints({}), methodContext]],
  Hook: [[Hook('onRequest'), methodContext]],
  UploadedFile: [[UploadedFile(), fieldContext]],
  UploadedFiles: [[UploadedFiles(), fieldContext]],
  createParamDecorator: [[createParamDecorator(() => 'user')(), fieldContext]],
  WebSocketGateway: [[WebSocketGateway(), classContext]],
  SubscribeMessage: [[SubscribeMessage('events'), methodContext]],
  MessageBody: [[MessageBody(), fieldContext]],
  ConnectedSocket: [[ConnectedSocket(), fieldContext]],
  WebSocketServer: [[WebSocketServer(), fieldContext]],
  Ack: [[Ack(), fieldContext]]
}

test('the table covers every decorator the package exports', () => {
  const isClass = (value: Function) => /^class\b/.test(Function.prototype.toString.call(value))
  const factories = Object.entries(api)
    .filter(([name, value]) => typeof value === 'function' && /^[A-Z]/.test(name) && !isClass(value as Function))
    .map(([name]) => name)
  assert.deepEqual([...factories, 'createParamDecorator'].sort(), Object.keys(decorators).sort())
})

test('every decorator called the TC39 way fails with FDP_ERR_INVALID_DECLARATION naming it, what it decorates and the fix', () => {
  for (const [name, uses] of Object.entries(decorators)) {
    for (const [decorator, context] of uses) {
      const value = (context as { kind: string }).kind === 'class' ? class CatsController {} : (context as { kind: string }).kind === 'method' ? function findAll () {} : undefined
      assert.throws(() => decorator(value, context), (error: any) => {
        assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION', name)
        const shown = name === 'createParamDecorator' ? 'createParamDecorator()' : `@${name}(`
        assert.ok(error.message.includes(shown), `${name}: ${error.message}`)
        const target = context === classContext ? 'the class CatsController' : context === methodContext ? 'the method findAll' : 'the field service'
        assert.ok(error.message.includes(target), `${name}: ${error.message}`)
        assert.match(error.message, /as a TC39 \(standard\) decorator/)
        assert.match(error.message, /Set "experimentalDecorators": true in tsconfig\.json/)
        assert.match(error.message, /"emitDecoratorMetadata": true and compile with tsc or SWC/)
        return true
      })
    }
  }
})

test('the legacy calling convention is unaffected, a static member is named as such', () => {
  class Cats { list () { return [] } }
  Get('all')(Cats.prototype, 'list', Object.getOwnPropertyDescriptor(Cats.prototype, 'list')!)
  Controller('cats')(Cats)
  assert.equal(controllerDefinition(Cats)?.path, 'cats')
  assert.deepEqual(routeDefinitions(Cats), [{ method: 'GET', path: 'all', key: 'list' }])
  assert.throws(() => Hook('onRequest')(function tick () {}, { kind: 'method', name: 'tick', static: true } as any, undefined as any),
    /@Hook\("onRequest"\) was applied to the static method tick of a class/)
})

test('tsx with a tsconfig lacking experimentalDecorators: loading the app fails naming the decorator, instead of serving 404s', () => {
  const fixture = fileURLToPath(new URL('../fixtures/tc39/', import.meta.url))
  let failure: any
  try {
    // tsx reads the tsconfig.json of the working directory, which sets no experimentalDecorators.
    execFileSync(process.execPath, ['--import', import.meta.resolve('tsx'), 'app.ts'], { cwd: fixture, encoding: 'utf8', stdio: 'pipe' })
  } catch (error) {
    failure = error
  }
  assert.ok(failure, 'the app was expected to fail to load')
  assert.match(failure.stderr, /FDP_ERR_INVALID_DECLARATION/)
  assert.match(failure.stderr, /@Get\(\) was applied to the method list of a class as a TC39 \(standard\) decorator/)
  assert.match(failure.stderr, /Set "experimentalDecorators": true/)
})
