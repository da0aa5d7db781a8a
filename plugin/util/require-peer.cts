import { createRequire } from 'node:module'

// CommonJS in both builds: a require that resolves optional peers from the package's own location,
// which an ES module could only learn from import.meta, a syntax the CommonJS build cannot contain.
// Made with createRequire: when a loader hook serves this file as source (tsx does), Node hands it
// a require of the ES module loader's, which cannot load a peer that requires a JSON file.
const load = createRequire(__filename)

export = function requirePeer (name: string): unknown {
  return load(name)
}
