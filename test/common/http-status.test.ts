import { test } from 'node:test'
import assert from 'node:assert/strict'
import { STATUS_CODES } from 'node:http'
import { HttpStatus as NestHttpStatus } from '@nestjs/common'
import { Controller, Get, HttpCode, HttpException, HttpStatus, Module, Post, Redirect } from '../../plugin/index.js'
import { build } from '../helpers/app.js'

// Where NestJS's name is not Node's reason phrase in upper snake case.
const renamed: Record<string, string> = {
  EARLYHINTS: 'EARLY_HINTS',
  AMBIGUOUS: 'MULTIPLE_CHOICES',
  REQUESTED_RANGE_NOT_SATISFIABLE: 'RANGE_NOT_SATISFIABLE',
  I_AM_A_TEAPOT: 'IM_A_TEAPOT',
  MISDIRECTED: 'MISDIRECTED_REQUEST'
}

// NestJS's names for statuses outside the IANA registry, which Node has no phrase for.
const unregistered: Record<string, number> = { CONTENT_DIFFERENT: 210, UNRECOVERABLE_ERROR: 456 }

const snake = (phrase: string) => phrase.replace(/'/g, '').toUpperCase().replace(/[^A-Z0-9]+/g, '_')

test('HttpStatus names every status by NestJS\'s names, each registered value a status Node knows by that phrase', () => {
  const names = Object.keys(HttpStatus).filter((key) => Number.isNaN(Number(key)))
  assert.equal(names.length, 65)
  for (const name of names) {
    const value = HttpStatus[name as keyof typeof HttpStatus]
    assert.equal(typeof value, 'number', name)
    if (name in unregistered) {
      assert.equal(value, unregistered[name], name)
      continue
    }
    const phrase = STATUS_CODES[value]
    assert.ok(phrase, `${name} = ${value} is a status Node knows`)
    assert.equal(renamed[name] ?? name, snake(phrase), `${name} = ${value} (${phrase})`)
  }
  assert.equal(HttpStatus.NOT_FOUND, 404)
  assert.equal(HttpStatus.I_AM_A_TEAPOT, 418)
  assert.equal(HttpStatus.UNPROCESSABLE_ENTITY, 422)
  assert.equal(HttpStatus.EARLY_HINTS, HttpStatus.EARLYHINTS)
})

test('every name of @nestjs/common\'s HttpStatus is there, with its value', () => {
  const theirs = Object.keys(NestHttpStatus).filter((key) => Number.isNaN(Number(key)))
  assert.ok(theirs.length > 50)
  for (const name of theirs) {
    assert.equal(HttpStatus[name as keyof typeof HttpStatus], NestHttpStatus[name as keyof typeof NestHttpStatus], name)
  }
})

test('HttpStatus maps a code back to its name', () => {
  assert.equal(HttpStatus[404], 'NOT_FOUND')
  assert.equal(HttpStatus[HttpStatus.CREATED], 'CREATED')
  assert.equal(HttpStatus[511], 'NETWORK_AUTHENTICATION_REQUIRED')
  assert.equal(HttpStatus[507], 'INSUFFICIENT_STORAGE')
  assert.equal(HttpStatus[210], 'CONTENT_DIFFERENT')
})

test('HttpStatus works wherever a status goes: @HttpCode, @Redirect, HttpException', async (t) => {
  @Controller()
  class StatusController {
    @Post('accept') @HttpCode(HttpStatus.ACCEPTED) accept () { return { queued: true } }
    @Get('moved') @Redirect('/new', HttpStatus.MOVED_PERMANENTLY) moved () {}
    @Get('teapot') teapot () { throw new HttpException('short and stout', HttpStatus.I_AM_A_TEAPOT) }
  }
  @Module({ controllers: [StatusController] })
  class AppModule {}
  const app = await build(t, AppModule)

  const accepted = await app.inject({ method: 'POST', url: '/accept' })
  assert.equal(accepted.statusCode, 202)
  assert.deepEqual(accepted.json(), { queued: true })
  const moved = await app.inject('/moved')
  assert.equal(moved.statusCode, 301)
  assert.equal(moved.headers.location, '/new')
  const teapot = await app.inject('/teapot')
  assert.equal(teapot.statusCode, 418)
  assert.equal(teapot.json().message, 'short and stout')
})
