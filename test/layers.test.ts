// plugin/ is built in layers, each importing only from its own layer and the ones below it, so
// the code reads bottom-up and no change can tie the layers into a knot again.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { importCycles, importGraph, importsOf } from './helpers/import-graph.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Lowest first. A new file of plugin/ takes its place in one of them. */
const layers: Array<{ name: string, files: string[] }> = [
  // Imported by everything: metadata keys and access, tokens, error codes, message and promise helpers.
  { name: 'leaf', files: ['types/index', 'types/testing', 'types/application', 'types/middleware', 'types/logger', 'util/symbols', 'util/metadata', 'util/empty', 'util/tokens', 'util/errors', 'util/describe', 'util/thrown', 'util/thenable', 'util/has-method', 'util/paths', 'util/legacy-decorator', 'util/require-peer', 'util/peers', 'common/exceptions', 'common/request-method', 'common/versioning-type', 'common/fastify-adapter', 'common/http-status', 'common/streamable-file', 'nest/http-adapter', 'nest/streamable-file'] },
  // Write metadata and check declarations as the decorators are applied; read their metadata back.
  { name: 'decorators', files: ['decorators/module', 'decorators/injectable', 'decorators/controller', 'decorators/version', 'decorators/params', 'decorators/http', 'decorators/enhancers', 'decorators/reflector', 'decorators/route-options', 'decorators/uploads', 'decorators/host', 'nest/keys', 'nest/reader', 'decorators/forward-ref', 'decorators/context-id', 'decorators/configurable-module'] },
  // The module graph, bindings and instances, lifecycle hooks.
  { name: 'di/container', files: ['di/scanner', 'di/providers', 'routing/controller-scan', 'di/binding', 'di/dependencies', 'di/cycles', 'di/module-ref', 'di/container', 'di/app-container', 'di/enhancer-ref', 'di/app-enhancers', 'di/lifecycle', 'nest/tokens'] },
  // What runs per request, composed once per route.
  { name: 'runtime', files: ['pipeline/execution-context', 'pipeline/call-handler', 'pipeline/results', 'pipeline/arguments', 'pipeline/guards', 'pipeline/handler', 'pipeline/exception-handler', 'routing/hooks', 'versioning/versioning', 'versioning/shared-version', 'routing/raw-body', 'validation/pipes', 'validation/validation-pipe', 'routing/route-pattern', 'routing/route-hooks', 'validation/dto-peers', 'validation/dto-verdicts', 'validation/dto-schema', 'validation/dto-registry', 'validation/dto-routes'] },
  // Plans the routes, then registers Fastify contexts, routes and hooks.
  { name: 'registration', files: ['routing/planner', 'routing/route-checks', 'routing/router', 'routing/module-plugins', 'extras/view', 'extras/middleware', 'extras/logger', 'di/internal-options', 'extras/shutdown-signals', 'nest/adopt', 'nest/index', 'nest/interop', 'plugin'] },
  { name: 'entry points', files: ['index', 'testing', 'testing/application', 'testing/cors', 'testing/lookup', 'testing/seed', 'testing/testing-module'] }
]

const layerOf = new Map(layers.flatMap(({ files }, level) => files.map((file) => [file.startsWith('types/') ? file : `plugin/${file}`, level])))
// A file's place in the layers, by its path without the extension.
const levelOf = (file: string) => layerOf.get(file.replace(/\.[cm]?ts$/, ''))
const graph = importGraph(root, ['plugin', 'types'])

test('plugin/ has no import cycle, type-only imports included', () => {
  assert.deepEqual(importCycles(graph), [])
})

test('every file of plugin/ and types/ has a layer, and imports only from its own layer or lower ones', () => {
  const unplaced = [...graph.keys()].filter((file) => levelOf(file) === undefined)
  assert.deepEqual(unplaced, [], 'add these files to a layer in test/layers.test.ts')
  const upward: string[] = []
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const from = levelOf(file)!
      const to = levelOf(target)
      if (to !== undefined && to > from) upward.push(`${file} (${layers[from].name}) imports ${target} (${layers[to].name})`)
    }
  }
  assert.deepEqual(upward, [])
  const files = new Set([...graph.keys()].map((file) => file.replace(/\.[cm]?ts$/, '')))
  const stale = [...layerOf.keys()].filter((file) => !files.has(file))
  assert.deepEqual(stale, [], 'these files no longer exist: remove them from the layers')
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
