// Installs the package into bench/node_modules as npm would: `npm pack` on the repository (its
// prepack builds it) and the tarball unpacked. The apps import it by name, so the bench loads
// what ships (the ES entry over the CommonJS build), with its peers resolved from this folder.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const target = fileURLToPath(new URL('node_modules/fastify-decorator-plugin', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'fdp-bench-'))
// `npm run --prefix bench` hands its prefix down; the pack is of the repository root.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(local_|global_)?prefix$/i.test(name)))
try {
  execFileSync('npm', ['pack', '--loglevel=warn', '--pack-destination', work], { cwd: root, env, stdio: ['ignore', 2, 2] })
  const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'))
  rmSync(target, { recursive: true, force: true })
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', target, '--strip-components=1'])
} finally {
  rmSync(work, { recursive: true, force: true })
}
