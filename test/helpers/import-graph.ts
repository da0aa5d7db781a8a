import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'

/** File -> the files it imports, as paths relative to the root. */
export type ImportGraph = Map<string, string[]>

/** Source with comments blanked (strings kept), so a commented-out import is no import. */
function withoutComments (source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\/\/[^\n]*/g, (match, string) => string ?? match.replace(/[^\n]/g, ' '))
}

/**
 * The relative module specifiers a TypeScript file imports: `import`, `import type`,
 * `export ... from`, side-effect imports and `import()` of a string literal.
 */
export function importsOf (source: string): string[] {
  const code = withoutComments(source)
  const found: string[] = []
  const statements = /^[ \t]*(?:import|export)\b(?:[^'";]*?\bfrom\s*)?\s*['"]([^'"]+)['"]/gm
  const dynamic = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const match of code.matchAll(statements)) found.push(match[1])
  for (const match of code.matchAll(dynamic)) found.push(match[1])
  return [...new Set(found.filter((specifier) => specifier.startsWith('.')))]
}

function tsFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return tsFiles(path)
    return /\.[cm]?ts$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) ? [path] : []
  })
}

/** The import graph of every TypeScript file under `dirs` (relative to `root`); `./x.js` names `x.ts`, `./x.cjs` `x.cts`. */
export function importGraph (root: string, dirs: string[]): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of dirs.flatMap((dir) => tsFiles(join(root, dir))).sort()) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .map((specifier) => relative(root, resolve(dirname(file), specifier)).replace(/\.([cm]?)js$/, '.$1ts'))
    graph.set(relative(root, file), targets)
  }
  return graph
}

/**
 * Every import cycle, one per strongly connected group of files, each written as the path
 * `a.ts -> b.ts -> a.ts` through that group. An empty list means the graph is acyclic.
 */
export function importCycles (graph: ImportGraph): string[] {
  // Tarjan's algorithm: files that reach each other form one component.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        connect(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      const selfImport = component.length === 1 && (graph.get(file) ?? []).includes(file)
      if (component.length > 1 || selfImport) components.push(component.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) connect(file)
  return components.map((component) => cyclePath(graph, new Set(component)))
}

// A shortest way from the component's first file back to itself, inside the component.
function cyclePath (graph: ImportGraph, component: Set<string>): string {
  const [start] = component
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()!
    for (const target of graph.get(file) ?? []) {
      if (!component.has(target)) continue
      if (target === start) {
        const path = [start]
        for (let at = file; at !== start; at = previous.get(at)!) path.splice(1, 0, at)
        return [...path, start].join(' -> ')
      }
      if (!previous.has(target)) {
        previous.set(target, file)
        queue.push(target)
      }
    }
  }
  return [...component].join(', ')
}
