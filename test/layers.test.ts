// plugin/ is laid out by layer: a folder per layer or feature, each importing only from the
// folders below it (and itself), so the code reads bottom-up and no change can tie the layers into
// a knot again. plugin/README.md maps each folder to its layer and its page of docs/.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { importCycles, importGraph, importsOf } from './helpers/import-graph.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Where each file of plugin/ and types/ sits, lowest first: types/, plugin/'s folders, the plugin
 * function (plugin.ts, which testing/ builds on), then the two entry points.
 */
const places = ['types', 'util', 'common', 'decorators', 'di', 'versioning', 'validation', 'openapi', 'pipeline', 'routing', 'extras', 'nest', 'websockets', 'plugin.ts', 'testing', 'index.ts', 'testing.ts']
const folders = places.filter((place) => place !== 'types' && !place.endsWith('.ts'))
const entries = places.filter((place) => place.endsWith('.ts')).map((file) => `plugin/${file}`)

const graph = importGraph(root, ['plugin', 'types'])

/** The folder (or, at plugin/'s root, the file) a file belongs to. */
const placeOf = (file: string): string => file.startsWith('types/') ? 'types' : file.split('/')[1]
/** Its level; the entry points share the top one. */
function levelOf (file: string): number | undefined {
  const index = places.indexOf(placeOf(file))
  if (index === -1 || (file.split('/').length === 2 && !entries.includes(file) && !file.startsWith('types/'))) return undefined
  return Math.min(index, places.indexOf('index.ts'))
}

test('plugin/ has no import cycle, type-only imports included', () => {
  assert.deepEqual(importCycles(graph), [])
})

test('plugin/ keeps only its entry files at its root; every other file is in a folder of the list', () => {
  const root = readdirSync(new URL('../plugin/', import.meta.url), { withFileTypes: true })
  assert.deepEqual(root.filter((entry) => entry.isFile() && /\.[cm]?ts$/.test(entry.name)).map((entry) => `plugin/${entry.name}`).sort(), [...entries].sort())
  assert.deepEqual(root.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort(), [...folders].sort(), 'add a new folder to the list, in its place')
  const unplaced = [...graph.keys()].filter((file) => levelOf(file) === undefined)
  assert.deepEqual(unplaced, [])
})

test('each folder imports only from itself and the folders below it; types/ imports nothing of plugin/', () => {
  const upward: string[] = []
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const from = levelOf(file)!
      const to = levelOf(target)
      if (to !== undefined && (to > from || (to === from && placeOf(file) !== placeOf(target)))) {
        upward.push(`${file} (${placeOf(file)}) imports ${target} (${placeOf(target)})`)
      }
    }
  }
  assert.deepEqual(upward, [])
})

test('levels: types/ lowest, then the folders in order, the entry points on top; a stray file has none', () => {
  assert.equal(levelOf('plugin/util/errors.ts')! < levelOf('plugin/di/container.ts')!, true)
  assert.equal(levelOf('types/index.ts'), 0)
  assert.equal(levelOf('plugin/plugin.ts')! < levelOf('plugin/testing/seed.ts')!, true)
  assert.equal(levelOf('plugin/index.ts'), levelOf('plugin/testing.ts'))
  assert.equal(levelOf('plugin/stray.ts'), undefined)
  assert.equal(levelOf('plugin/stray/file.ts'), undefined)
})

test('imports are read in every form: type-only, multi-line, re-exports, side effects, import()', () => {
  const source = [
    "import 'reflect-metadata'",
    "import type { A } from './a.js'",
    'import {',
    '  b,',
    '  type C',
    "} from './b.js'",
    "export { d } from './d.js'",
    "export type * from '../types/index.js'",
    "// import { e } from './e.js'",
    "/* import { f } from './f.js' */",
    "const g = await import('./g.js')",
    "const text = 'import h from \"./h.js\"'"
  ].join('\n')
  assert.deepEqual(importsOf(source), ['./a.js', './b.js', './d.js', '../types/index.js', './g.js'])
})

test('a cycle is found and named by its path, a self-import included; an acyclic graph has none', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'd.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['e.ts']],
    ['e.ts', []],
    ['f.ts', ['f.ts']]
  ])
  assert.deepEqual(importCycles(graph), ['a.ts -> b.ts -> c.ts -> a.ts', 'f.ts -> f.ts'])
  assert.deepEqual(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', []]])), [])
})
