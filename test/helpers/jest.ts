// Jest in the projects that install the packed package: the spec they share and how Jest is run.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

let runs = 0

export interface JestResult { numPassedTests: number, numFailedTests: number, testResults: Array<{ message: string }> }

/** Runs Jest (`jest`: its bin/jest.js) in `dir` with `args`; its JSON report. `node` are Node's own flags. */
export function jestReport (jest: string, dir: string, args: string[], node: string[] = []): JestResult {
  const output = join(dir, `result-${++runs}.json`)
  try {
    execFileSync(process.execPath, [...node, jest, '--ci', '--no-watchman', '--json', '--outputFile', output, ...args], { cwd: dir, stdio: 'pipe', timeout: 120_000 })
  } catch {
    // A failing spec exits non-zero; the report says what failed.
  }
  return JSON.parse(readFileSync(output, 'utf8'))
}

/** A spec as a NestJS project writes it: TypeScript decorators, injection by type (SWC emits the metadata). */
export const catsSpec = `
import { Controller, Get, Injectable, Module, NotFoundException, Param } from 'fastify-decorator-plugin'
import { createTestApp } from 'fastify-decorator-plugin/testing'

@Injectable()
class CatsService {
  find (id: string) {
    if (id !== '1') throw new NotFoundException('no such cat')
    return { id, name: 'Tom' }
  }
}

@Controller('cats')
class CatsController {
  constructor (private readonly cats: CatsService) {}
  @Get(':id') find (@Param('id') id: string) { return this.cats.find(id) }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class AppModule {}

test('a controller answers through inject()', async () => {
  const app = await createTestApp(AppModule)
  expect((await app.inject('/cats/1')).json()).toEqual({ id: '1', name: 'Tom' })
  const missing = await app.inject('/cats/2')
  expect(missing.statusCode).toBe(404)
  expect(missing.json()).toEqual({ statusCode: 404, message: 'no such cat', error: 'Not Found' })
  await app.close()
})
`
