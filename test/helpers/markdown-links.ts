import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

export interface MarkdownLink { target: string, line: number }

/** Markdown text with fenced code blocks and inline code blanked, so their brackets are not links. */
function prose (markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '``')
  })
}

/** Every link and image target written as `[text](target)` outside code. */
export function markdownLinks (markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = []
  prose(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] ?? match[2], line: index + 1 })
    }
  })
  return links
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug (heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors a page offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function markdownAnchors (markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading !== null) {
      const slug = headingSlug(heading[1])
      const count = seen.get(slug) ?? 0
      seen.set(slug, count + 1)
      anchors.add(count === 0 ? slug : `${slug}-${count}`)
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1])
  }
  return anchors
}

/**
 * Relative links of the given Markdown files whose file does not exist, or whose
 * `#anchor` names no heading of the Markdown page it points to. Each as `file:line target`.
 */
export function brokenLinks (root: string, files: string[]): string[] {
  const broken: string[] = []
  for (const file of files) {
    const path = resolve(root, file)
    const text = readFileSync(path, 'utf8')
    for (const { target, line } of markdownLinks(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2)
      const linked = pathPart === '' ? path : resolve(dirname(path), decodeURI(pathPart))
      const where = `${relative(root, path)}:${line} ${target}`
      if (!existsSync(linked)) {
        broken.push(`${where} (no such file)`)
      } else if (anchor !== undefined && anchor !== '') {
        if (!statSync(linked).isFile() || !linked.endsWith('.md')) {
          broken.push(`${where} (an anchor into something that is not a Markdown page)`)
        } else if (!markdownAnchors(readFileSync(linked, 'utf8')).has(decodeURIComponent(anchor))) {
          broken.push(`${where} (no such heading)`)
        }
      }
    }
  }
  return broken
}
