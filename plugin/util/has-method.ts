/** Whether `entry`, a class or an instance, has the method `name` (for a class, on its prototype). */
export function hasMethod (entry: unknown, name: string): boolean {
  const holder = typeof entry === 'function' ? entry.prototype : entry
  return typeof (holder as Record<string, unknown> | null | undefined)?.[name] === 'function'
}
