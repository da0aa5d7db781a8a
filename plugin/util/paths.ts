/** Joins path pieces into `/a/b`, never doubling or dropping slashes; '' when empty. */
export function joinPath (...parts: string[]): string {
  // One pass over the characters: it runs for every route at startup, mostly before V8 optimizes it.
  let joined = ''
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]
    let start = 0
    for (let i = 0; i <= part.length; i++) {
      if (i < part.length && part.charCodeAt(i) !== 47) continue // '/'
      if (i > start) joined += '/' + part.slice(start, i)
      start = i + 1
    }
  }
  return joined
}

/** Index of the parenthesis closing the one at `open` in a route path, skipping escaped characters. */
export function closingParenthesis (path: string, open: number): number {
  let depth = 0
  for (let i = open; i < path.length; i++) {
    if (path[i] === '\\') i++
    else if (path[i] === '(') depth++
    else if (path[i] === ')' && --depth === 0) return i
  }
  return path.length
}
