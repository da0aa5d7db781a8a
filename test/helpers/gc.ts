import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

// The collector, without starting node with --expose-gc: the flag is read when a context is made.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/** Whether each target of `refs` has been collected, after full collections outside the current job (a WeakRef keeps its target until then). */
export async function collected (refs: Array<WeakRef<object>>): Promise<boolean[]> {
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => setImmediate(resolve))
    collect()
  }
  return refs.map((ref) => ref.deref() === undefined)
}
