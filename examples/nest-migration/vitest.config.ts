import swc from 'unplugin-swc'
import { defineConfig } from 'vitest/config'

// SWC compiles the specs and the sources they load, emitting the decorator metadata that
// injection by type reads (Vitest's own transform leaves it out).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globals: true,
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts']
  }
})
