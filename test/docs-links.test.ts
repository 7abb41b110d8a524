import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

/** The user and contributor documents whose relative links must resolve. */
const DOCUMENTS = [
  'README.md',
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
});
