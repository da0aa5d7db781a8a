// The migrated NestJS projects under examples/ (nest-migration, nest-auth-migration) run in
// copies: one with the built package installed, one with their import specifiers turned back
// into NestJS's. What both tests share: the copies, and turning a specifier back.
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('../../../', import.meta.url))
export const modules = join(root, 'node_modules')
export const plugin = 'fastify-decorator-plugin'
// Where each NestJS package's names are looked for when a specifier is turned back, in this order.
const nestPackages = ['@nestjs/common', '@nestjs/core', '@nestjs/platform-fastify']

export function run (command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true', NO_COLOR: '1' } })
  } catch (error: any) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout}\n${error.stderr}`)
  }
}

/** The example's files (no node_modules or dist), by path relative to the project. */
function sources (example: string, dir = example): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(example, join(entry.parentPath, entry.name)))
    .filter((path) => !/^(node_modules|dist)\//.test(path))
    .sort()
}

/**
 * A copy of the example in `dir` with its dependencies installed: each linked from this
 * repository. `edit` may change a file's text, or leave the file out by answering undefined.
 */
export function project (example: string, dir: string, edit: (path: string, text: string) => string | undefined = (path, text) => text): string {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  for (const entry of readdirSync(modules)) {
    if (!entry.startsWith('.')) symlinkSync(join(modules, entry), join(dir, 'node_modules', entry))
  }
  for (const path of sources(example)) {
    const text = edit(path, readFileSync(join(example, path), 'utf8'))
    if (text === undefined) continue
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** The built package as npm installs it into the project: its manifest and its builds. */
export function installPlugin (dir: string): void {
  const installed = join(dir, 'node_modules', plugin)
  mkdirSync(installed)
  cpSync(join(root, 'package.json'), join(installed, 'package.json'))
  for (const build of ['plugin', 'cjs', 'types', 'wrapper']) cpSync(join(root, 'dist', build), join(installed, 'dist', build), { recursive: true })
}

export interface Report { passed: string[], failed: string[] }

/**
 * What a Jest or Vitest JSON report (`--json --outputFile`, `--reporter json --outputFile`; the
 * two write the same shape) says of each spec, named by file and full name.
 */
export function readReport (dir: string, file: string): Report {
  const result = JSON.parse(readFileSync(join(dir, file), 'utf8'))
  const report: Report = { passed: [], failed: [] }
  for (const suite of result.testResults) {
    for (const spec of suite.assertionResults) {
      const name = `${relative(dir, suite.name)} > ${spec.fullName}`
      if (spec.status === 'passed') report.passed.push(name)
      else report.failed.push(`${name}: ${spec.failureMessages.join('\n')}`)
    }
    if (suite.status !== 'passed' && suite.assertionResults.length === 0) report.failed.push(`${relative(dir, suite.name)}: ${suite.message}`)
  }
  report.passed.sort()
  return report
}

// Names each NestJS package exports: its values, and (for type-only imports) the types its declarations export.
const exported = new Map<string, { values: Set<string>, types: Set<string> }>()

/** Reads what the NestJS packages export; `revert` needs it. */
export async function loadNestExports (): Promise<void> {
  for (const pkg of [...nestPackages, '@nestjs/testing']) {
    if (exported.has(pkg)) continue
    const dir = join(modules, ...pkg.split('/'))
    const values = new Set(Object.keys(await import(pkg)))
    const types = new Set(values)
    for (const path of readdirSync(dir, { recursive: true }) as string[]) {
      if (!path.endsWith('.d.ts') || path.includes('node_modules')) continue
      for (const match of readFileSync(join(dir, path), 'utf8').matchAll(/export (?:declare )?(?:interface|type|class|abstract class|enum) (\w+)/g)) {
        types.add(match[1])
      }
    }
    exported.set(pkg, { values, types })
  }
}

/**
 * The source with each import of the plugin given back NestJS's specifier: the testing entry is
 * @nestjs/testing, and each statement of the main entry is the first NestJS package that exports
 * all of its names. Fails on a name no NestJS package exports, or on a statement that mixes
 * packages: neither can have come from a NestJS app by changing a specifier.
 */
export function revert (path: string, text: string): string {
  return text.replace(/import (type )?\{([^}]*)\} from '(fastify-decorator-plugin(?:\/testing)?)'/g, (statement, typeOnly: string | undefined, list: string, specifier: string) => {
    const names = list.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => ({
      name: entry.replace(/^type /, '').split(' as ')[0],
      type: typeOnly !== undefined || entry.startsWith('type ')
    }))
    const has = (pkg: string, { name, type }: { name: string, type: boolean }) => exported.get(pkg)![type ? 'types' : 'values'].has(name)
    const candidates = specifier === plugin ? nestPackages : ['@nestjs/testing']
    const target = candidates.find((pkg) => names.every((name) => has(pkg, name)))
    if (target === undefined) {
      const foreign = names.filter((name) => !candidates.some((pkg) => has(pkg, name))).map(({ name }) => name)
      assert.fail(`${path}: "${statement.replace(/\s+/g, ' ')}" cannot be NestJS's: ${foreign.length > 0 ? `no NestJS package exports ${foreign.join(', ')}` : 'its names come from different NestJS packages'}`)
    }
    return statement.replace(`'${specifier}'`, `'${target}'`)
  })
}

/** A project's main.ts, built with its build configuration and started on a free port: its URL, its output so far, and a stop that sends SIGTERM and gives how it exited. */
export async function startMain (dir: string): Promise<{ url: string, output: () => string, stop: () => Promise<{ code: number | null, signal: NodeJS.Signals | null }> }> {
  run(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], dir)
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: dir, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const exited = once(child, 'exit')
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (listening) resolve(listening[1])
    })
    exited.then(() => reject(new Error(`main.js exited before listening: ${output}`)), reject)
  })
  return {
    url,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM')
      const [code, signal] = await exited
      clearTimeout(timer)
      return { code, signal }
    }
  }
}

/** A copy of the example with its import specifiers turned back into NestJS's and NestJS's main.ts, and how many files changed. */
export function nestProject (example: string, dir: string, nestMain: string): { dir: string, reverted: number } {
  let reverted = 0
  const made = project(example, dir, (path, text) => {
    if (path === 'src/main.ts') return nestMain
    if (!path.endsWith('.ts')) return text
    const back = revert(path, text)
    assert.doesNotMatch(back, /fastify-decorator-plugin/, `${path} names the plugin only in import specifiers`)
    if (back !== text) reverted++
    return back
  })
  return { dir: made, reverted }
}
