// Bundles tsc's ES module output of plugin/ in place: Node loads the two entry points and the
// chunks they share instead of about eighty modules, in well under half the CPU time. The
// package build and the bench build both run it, so the bench measures what users get.
// Usage: node scripts/bundle.js <directory of tsc's plugin/ output>
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { build } from 'esbuild'

const entries = ['index.js', 'testing.js']

/** Every file under `dir`, as absolute paths. */
function filesUnder (dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

async function bundle (dir) {
  const result = await build({
    absWorkingDir: dir,
    entryPoints: entries,
    outdir: dir,
    bundle: true,
    // One copy of the runtime for both entry points: a class such as HttpException is the
    // same object through either of them.
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Bundled, a class that names itself inside its body is emitted as `var Logger = class _Logger`,
    // and a name two modules share is renamed: this keeps every class's and function's `name`.
    keepNames: true,
    // Peers stay imports of their own; the CommonJS helper keeps its own file, since it needs
    // the __filename of a CommonJS module to resolve peers from the package's location.
    packages: 'external',
    plugins: [{
      name: 'commonjs-beside',
      setup (context) {
        // Every output lands in `dir` itself, so the path is made relative to it.
        context.onResolve({ filter: /\.cjs$/ }, ({ path, resolveDir }) => ({ path: './' + relative(dir, resolve(resolveDir, path)), external: true }))
      }
    }],
    // Chained through tsc's maps to plugin/*.ts, which the package ships: no copies of the sources.
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'warning'
  })
  const bundled = new Set(Object.keys(result.metafile.inputs).map((path) => resolve(dir, path)))
  // The modules now inside the bundle go, with their maps; declarations stay.
  for (const file of bundled) rmSync(file)
  for (const file of filesUnder(dir)) {
    if (file.endsWith('.js.map') && bundled.has(file.slice(0, -4))) rmSync(file)
  }
  for (const { path, contents } of result.outputFiles) writeFileSync(path, contents)
  const left = filesUnder(dir).filter((file) => file.endsWith('.js') && !result.outputFiles.some((output) => output.path === file))
  if (left.length > 0) throw new Error(`not in the bundle, yet emitted as modules: ${left.map((file) => relative(dir, file)).join(', ')}`)
}

await bundle(resolve(process.argv[2] ?? 'dist/plugin'))
