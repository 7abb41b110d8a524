import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

/** The user and contributor documents whose relative links must resolve. */
const DOCUMENTS = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Every `[text](target)` outside code fences and inline code, with its line. */
function relativeLinks(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (text.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    for (const match of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      links.push({ line: index + 1, target });
    }
  });
  return links;
}

describe('documentation links', () => {
  it('finds the links it checks', () => {
    expect(relativeLinks('see [a](docs/a.md), `[b](c.md)`, [d](https://x.y) and [e](#f)\n```\n[g](h.md)\n```')).toEqual(
      [{ line: 1, target: 'docs/a.md' }],
    );
  });

  it.each(DOCUMENTS)('every relative link of %s names an existing file', (document) => {
    const missing = relativeLinks(readFileSync(path.join(REPO, document), 'utf8'))
      .filter(({ target }) => !existsSync(path.join(REPO, path.dirname(document), target.split('#')[0]!)))
      .map(({ line, target }) => `${document}:${line}: ${target}`);
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)('every link of %s to a heading of another document names one of its headings', (document) => {
    const missing = relativeLinks(readFileSync(path.join(REPO, document), 'utf8'))
      .filter(({ target }) => /\.md#/.test(target))
      .filter(({ target }) => {
        const [file, anchor] = target.split('#') as [string, string];
        const full = path.join(REPO, path.dirname(document), file);
        return existsSync(full) && !headingAnchors(readFileSync(full, 'utf8')).has(anchor);
      })
      .map(({ line, target }) => `${document}:${line}: ${target}`);
    expect(missing).toEqual([]);
  });

  it('reads heading anchors as GitHub makes them', () => {
    expect([...headingAnchors('# Where a change goes\n## `toolsmith diff`: two sides\n```\n# not one\n```')]).toEqual([
      'where-a-change-goes',
      'toolsmith-diff-two-sides',
    ]);
  });
});

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading === null) continue;
    anchors.add(
      heading[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}
