// What `npm install` and `npm pack` see: the dependency tree and package.json.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import semver from 'semver'

const root = new URL('../', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'))

test('no installed package refuses the oldest Node the package supports, nor the one running (no EBADENGINE)', () => {
  const ours: string = pkg.engines.node
  // npm warns about the running Node; the oldest supported one is where contributors meet it first.
  const versions = [semver.minVersion(ours)!.version, process.versions.node]
  const misfits: string[] = []
  for (const [path, entry] of Object.entries<any>(lock.packages)) {
    const range = entry.engines?.node
    if (path === '' || typeof range !== 'string') continue
    for (const version of versions) {
      if (!semver.satisfies(version, range)) misfits.push(`${path}@${entry.version} needs node ${range}, not ${version}`)
    }
  }
  assert.deepEqual(misfits, [], `engines.node is ${ours}; these packages would warn EBADENGINE`)
})

test('runtime dependencies are caret ranges, so an install shares the copy fastify brings; devDependencies stay exact', () => {
  const exact = (range: string) => semver.valid(range) !== null
  for (const [name, range] of Object.entries<string>(pkg.dependencies)) {
    assert.match(range, /^\^\d+\.\d+\.\d+$/, `dependencies.${name} is ${range}`)
    // The version the lockfile installs is inside the range, and so is fastify's own copy where it has one.
    assert.ok(semver.satisfies(lock.packages[`node_modules/${name}`].version, range), `${name}@${lock.packages[`node_modules/${name}`].version} outside ${range}`)
    const fastifys = lock.packages['node_modules/fastify'].dependencies?.[name]
    if (fastifys !== undefined) assert.ok(semver.intersects(fastifys, range), `fastify wants ${name}@${fastifys}, the package ${range}`)
  }
  assert.deepEqual(Object.entries<string>(pkg.devDependencies).filter(([, range]) => !exact(range)), [])
})
