import { test } from 'node:test'
import assert from 'node:assert/strict'
import { matchRoute, parsePattern, requestPath } from '../plugin/route-pattern.js'

const verdict = (pattern: string, url: string) => matchRoute(parsePattern(pattern, 'test'), url)

test('a pattern matches a route always, never, or as the request decides', () => {
  assert.equal(verdict('cats', '/cats'), 'yes')
  assert.equal(verdict('/Cats/', '/cats'), 'yes')
  assert.equal(verdict('cats', '/cats/:id'), 'no')
  assert.equal(verdict('cats/:id', '/cats/:id'), 'yes')
  assert.equal(verdict('cats/:id', '/cats/new'), 'yes')
  assert.equal(verdict('cats/new', '/cats/:id'), 'maybe')
  assert.equal(verdict('cats/new', '/cats/old'), 'no')
  assert.equal(verdict('cats/*', '/cats'), 'no')
  assert.equal(verdict('cats/*', '/cats/a/b'), 'yes')
  assert.equal(verdict('cats/(.*)', '/cats/:id'), 'yes')
  assert.equal(verdict('cats/{*rest}', '/cats'), 'yes')
  assert.equal(verdict('cats{/*rest}', '/cats'), 'yes')
  assert.equal(verdict('cats/x', '/cats/*'), 'maybe')
  assert.equal(verdict('cats', '/cats/*'), 'maybe')
  assert.equal(verdict('dogs/*', '/cats/*'), 'no')
  for (const all of ['*', '/*', '(.*)', '{*path}', '*path', '']) assert.equal(verdict(all, '/anything/:id'), 'yes', all)
})

test('a pattern\'s regexp tests a decoded request path', () => {
  const { regexp } = parsePattern('cats/:id/toys/{*rest}', 'test')
  assert.equal(regexp.test(requestPath('/cats/1/toys')), true)
  assert.equal(regexp.test(requestPath('/cats/1/toys/a/b?x=1')), true)
  assert.equal(regexp.test(requestPath('/cats//toys')), false)
  assert.equal(parsePattern('cats/new', 'test').regexp.test(requestPath('/cats/%6Eew')), true)
  assert.equal(requestPath('/bad%zz'), '/bad%zz')
})
