// An ES import() that stays one in the CommonJS build: the build compiles this file as Node treats
// a .cts file (module nodenext), where the compiler keeps import() instead of turning it into
// require(). A require() of an ES-module-only peer (NestJS 12's packages) works in Node 20.19 and
// later, but not under a module loader of its own such as Jest's in ES module mode.
export = function importPeer (name: string): Promise<any> {
  return import(name)
}
