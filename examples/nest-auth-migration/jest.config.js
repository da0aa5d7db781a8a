// Jest with SWC, on CommonJS. SWC also compiles the NestJS packages, which ship as ES modules only:
// Jest's module loader cannot require() those before Node 24.9. cookie, which light-my-request
// loads for inject(), is one too from its release 2.
module.exports = {
  testEnvironment: 'node',
  testRegex: ['src/.*\\.spec\\.ts$', 'test/.*\\.e2e-spec\\.ts$'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2023'
      }
    }]
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|cookie)/)']
}
