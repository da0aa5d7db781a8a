import { test } from 'node:test'
import assert from 'node:assert/strict'
import { matchPath, matchRoute, parsePattern, routedPath } from '../../plugin/routing/route-pattern.js'

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

test('a route\'s routed path is its own text with the values the router matched', () => {
  assert.deepEqual(routedPath('/cats/:id')({ id: 'new' }), ['cats', 'new'])
  assert.deepEqual(routedPath('/cats/:id/')({ id: 'new' }), ['cats', 'new', ''])
  // A value holding a slash (an encoded %2F) stays one segment.
  assert.deepEqual(routedPath('/cats/:id')({ id: 'a/b' }), ['cats', 'a\u0000b'])
  assert.deepEqual(routedPath('/files/*')({ '*': 'a/b' }), ['files', 'a', 'b'])
  assert.deepEqual(routedPath('/files*')({ '*': '/a' }), ['files', 'a'])
  assert.deepEqual(routedPath('/img/:name.:ext')({ name: 'cat', ext: 'png' }), ['img', 'cat.png'])
  assert.deepEqual(routedPath('/range/:from-:to')({ from: '1', to: '9' }), ['range', '1-9'])
  assert.deepEqual(routedPath('/n/:id(^\\d+)/x')({ id: '7' }), ['n', '7', 'x'])
  assert.deepEqual(routedPath('/n/:id(^(\\d)+)/x')({ id: '7' }), ['n', '7', 'x'])
  assert.deepEqual(routedPath('/a::b/:id')({ id: '1' }), ['a:b', '1'])
  assert.deepEqual(routedPath('/cats/:id')({}), ['cats', ''])
})

test('a pattern matches a routed path segment by segment', () => {
  const matches = (pattern: string, parts: string[]) => matchPath(parsePattern(pattern, 'test'), parts)
  assert.equal(matches('cats/:id/toys/{*rest}', ['cats', '1', 'toys']), true)
  assert.equal(matches('cats/:id/toys/{*rest}', ['cats', '1', 'toys', 'a', 'b']), true)
  assert.equal(matches('cats/:id/toys/{*rest}', ['cats', '', 'toys']), false)
  assert.equal(matches('cats/new', ['cats', 'NEW']), true)
  assert.equal(matches('cats/new', ['cats', 'new', '']), true)
  assert.equal(matches('cats/new', ['cats', 'new\u0000x']), false)
  assert.equal(matches('cats/:id', ['cats', 'new\u0000x']), true)
  assert.equal(matches('cats/:id', ['cats', '']), false)
  assert.equal(matches('cats/:id', ['cats', 'a', 'b']), false)
  assert.equal(matches('cats/*', ['cats', '']), false)
  assert.equal(matches('cats/*', ['cats', '', 'x']), true)
  assert.equal(matches('cats/{*rest}', ['cats']), true)
  assert.equal(matches('cats', ['dogs']), false)
  assert.equal(matches('cats/x', ['cats']), false)
  assert.equal(matches('*', ['anything', 'at', 'all']), true)
})
