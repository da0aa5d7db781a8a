// CommonJS in both builds: `require` resolves optional peers from the package's own location,
// which an ES module could only learn from import.meta, a syntax the CommonJS build cannot contain.
export = function requirePeer (name: string): unknown {
  return require(name)
}
