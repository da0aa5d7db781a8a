// The README and the manual in docs/ link to each other by relative paths and anchors;
// these tests keep those links from rotting as pages move or headings change.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brokenLinks, headingSlug, markdownAnchors, markdownLinks } from './helpers/markdown-links.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`),
  'bench/README.md',
  'SECURITY.md',
  'CHANGELOG.md'
]

test('every relative link in the README and docs/ points to an existing file and heading', () => {
  assert.deepEqual(brokenLinks(root, pages), [])
})

test('the README stays a front page of at most 400 lines', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length
  assert.ok(lines <= 400, `README.md has ${lines} lines; move the detail into docs/`)
})

test('docs/README.md links every page of docs/', () => {
  const map = new Set(markdownLinks(readFileSync(join(root, 'docs/README.md'), 'utf8')).map(({ target }) => target.split('#')[0]))
  const missing = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md' && !map.has(name))
  assert.deepEqual(missing, [])
})

test('headings get GitHub\'s anchors', () => {
  assert.equal(headingSlug('Hooks as providers: `@Hook(name)`'), 'hooks-as-providers-hookname')
  assert.equal(headingSlug('Route config: @fastify/rate-limit and others'), 'route-config-fastifyrate-limit-and-others')
  assert.equal(headingSlug('File uploads: `@UploadedFile()`, `@UploadedFiles()`'), 'file-uploads-uploadedfile-uploadedfiles')
  assert.equal(headingSlug('Moving from plain Fastify, one route at a time'), 'moving-from-plain-fastify-one-route-at-a-time')
  assert.deepEqual([...markdownAnchors('# Notes\n## Notes\n```md\n# Not a heading\n```\n<a id="kept"></a>\n')], ['notes', 'notes-1', 'kept'])
})

test('links inside code are not links', () => {
  const markdown = 'See [a](a.md).\n```ts\nconst x = y[0](z)\n```\nand `[b](b.md)` and [c](<c d.md> "title")'
  assert.deepEqual(markdownLinks(markdown), [{ target: 'a.md', line: 1 }, { target: 'c d.md', line: 5 }])
})

test('a missing file, a missing heading and an anchor into a non-page are reported; good links are not', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fdp-links-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'docs'))
  writeFileSync(join(dir, 'code.ts'), '')
  writeFileSync(join(dir, 'docs/page.md'), '# Page\n\n## Some `code` here\n\n[back](../README.md#top) [self](#page)\n')
  writeFileSync(join(dir, 'README.md'), [
    '# Top',
    '[ok](docs/page.md) [ok](docs/page.md#some-code-here) [ok](#top) [ok](docs/) [web](https://example.com/x.md)',
    '[gone](docs/missing.md)',
    '[typo](docs/page.md#some-code)',
    '[here](#nowhere)',
    '[code](code.ts#L1)'
  ].join('\n'))

  assert.deepEqual(brokenLinks(dir, ['README.md', 'docs/page.md']), [
    'README.md:3 docs/missing.md (no such file)',
    'README.md:4 docs/page.md#some-code (no such heading)',
    'README.md:5 #nowhere (no such heading)',
    'README.md:6 code.ts#L1 (an anchor into something that is not a Markdown page)'
  ])
})
