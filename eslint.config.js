// neostandard, Fastify's style, for TypeScript. typescript-eslint cannot parse with
// TypeScript 7 yet, so package.json's overrides give neostandard TypeScript 6 of its
// own; tsc for the build and the tests stays on 7.
import neostandard, { resolveIgnoresFromGitignore } from 'neostandard'

export default [
  ...neostandard({
    ts: true,
    ignores: resolveIgnoresFromGitignore()
  }),
  {
    rules: {
      // A class declared only for what its decorators do (a declaration that must
      // fail, a type test) is marked as used with a `void Name` statement; `void`
      // as a value stays an error.
      'no-void': ['error', { allowAsStatement: true }]
    }
  },
  {
    files: ['**/*.ts'],
    rules: {
      // tsc already rejects real redeclarations (ts2451); the rule would also reject
      // a value and a type sharing a name on purpose, as `Scope` does to stand in
      // for NestJS's enum.
      '@typescript-eslint/no-redeclare': 'off'
    }
  }
]
