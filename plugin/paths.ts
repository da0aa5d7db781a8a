/** Joins path pieces into `/a/b`, never doubling or dropping slashes; '' when empty. */
export function joinPath (...parts: string[]): string {
  const segments = parts.flatMap((part) => part.split('/')).filter((segment) => segment !== '')
  return segments.length === 0 ? '' : `/${segments.join('/')}`
}
