import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'

const fixtures = fileURLToPath(new URL('../fixtures/lazy-loading/', import.meta.url))

/**
 * Runs test/fixtures/lazy-loading/<app>.ts in a process of its own, with a resolution hook
 * watching imports: gives its answer and the line naming what was imported.
 */
export async function runWatched (app: string, env: Record<string, string> = {}): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', './watch-imports.mjs', `./${app}.ts`], {
    cwd: fixtures,
    env: { ...process.env, ...env }
  })
  return stdout.trim().split('\n')
}
