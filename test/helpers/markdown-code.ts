export interface CodeBlock {
  /** The info string after the opening fence, such as `ts` or `ts fragment`. */
  info: string
  /** Line of the opening fence, counted from 1. */
  line: number
  code: string
}

/** Every fenced code block of a Markdown page, with its info string and where it starts. */
export function codeBlocks (markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  let open: { fence: string, info: string, line: number, lines: string[] } | undefined
  markdown.split('\n').forEach((text, index) => {
    const fence = /^\s*(`{3,}|~{3,})\s*(.*?)\s*$/.exec(text)
    if (open === undefined) {
      if (fence !== null) open = { fence: fence[1], info: fence[2], line: index + 1, lines: [] }
    } else if (fence !== null && fence[2] === '' && fence[1].startsWith(open.fence)) {
      blocks.push({ info: open.info, line: open.line, code: open.lines.join('\n') + '\n' })
      open = undefined
    } else {
      open.lines.push(text)
    }
  })
  return blocks
}

/** The TypeScript blocks a page offers as complete modules: ```ts, not ```ts fragment. */
export function typescriptModules (markdown: string): CodeBlock[] {
  return codeBlocks(markdown).filter(({ info }) => info === 'ts')
}
