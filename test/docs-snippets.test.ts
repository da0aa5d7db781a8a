// Every ```ts block of the README and docs/ compiles as written: each block is a module of its own,
// checked by the project's tsc with the project's settings (strict, experimentalDecorators,
// emitDecoratorMetadata), 'fastify-decorator-plugin' resolving to the sources. A block that shows
// part of a file (class members, a before/after pair) is fenced ```ts fragment and not compiled.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { codeBlocks, typescriptModules } from './helpers/markdown-code.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)]

/** A file name for a block that says where it comes from: docs/testing.md line 12 -> docs_testing.md_L12.ts. */
const fileOf = (page: string, line: number) => `${page.replace(/\//g, '_')}_L${line}.ts`

test('the block reader finds ```ts blocks with their lines, and leaves out fragments and other languages', () => {
  const markdown = ['# Page', '```ts', 'const a = 1', '```', '```ts fragment', 'a()', '```', '```js', 'b()', '```', '````md', '```ts', 'inner', '```', '````'].join('\n')
  assert.deepEqual(codeBlocks(markdown).map(({ info, line }) => [info, line]), [['ts', 2], ['ts fragment', 5], ['js', 8], ['md', 11]])
  assert.deepEqual(typescriptModules(markdown), [{ info: 'ts', line: 2, code: 'const a = 1\n' }])
})

test('every ```ts block of the README and docs/ type-checks as its own module', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fdp-snippets-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  // ES modules, as the README's top-level await needs.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const files: string[] = []
  for (const page of pages) {
    for (const { line, code } of typescriptModules(readFileSync(join(root, page), 'utf8'))) {
      const file = fileOf(page, line)
      // `export {}` keeps a block without imports a module, its names its own.
      writeFileSync(join(dir, file), `${code}export {}\n`)
      files.push(file)
    }
  }
  assert.ok(files.length >= 6, `${files.length} blocks`)
  // A block that must fail, so a checker that checks nothing cannot pass.
  writeFileSync(join(dir, 'wrong.ts'), 'import { Controller } from \'fastify-decorator-plugin\'\n@Controller(42)\nexport class Wrong {}\n')
  const compilerOptions = {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    paths: {
      'fastify-decorator-plugin': [join(root, 'plugin', 'index.ts')],
      'fastify-decorator-plugin/testing': [join(root, 'plugin', 'testing.ts')]
    }
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [...files, 'wrong.ts'] }))
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' })
  const errors = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line))
  assert.match(errors.find((line) => line.startsWith('wrong.ts')) ?? '', /^wrong\.ts\(2,13\): error TS2345/, result.stdout + result.stderr)
  // Each error named by page and line of the Markdown: docs_testing.md_L12.ts(3,1) is docs/testing.md line 15.
  const located = errors.filter((line) => !line.startsWith('wrong.ts')).map((line) => {
    const match = /^(.+?)_L(\d+)\.ts\((\d+),(\d+)\): (.*)$/.exec(line)
    return match === null ? line : `${match[1].replace(/_/g, '/')}:${Number(match[2]) + Number(match[3])} ${match[5]}`
  })
  assert.deepEqual(located, [])
})
