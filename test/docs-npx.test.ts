/*
 * The name `toolsmith` on the npm registry belongs to an unrelated package. `npx toolsmith …` where
 * toolsmith-sdk is not installed yet (the wrong folder, a CI job where npx answers its own prompt)
 * would download and run it. Every command the user documents show must be safe before install:
 * `npx --no toolsmith …` (npx refuses to install anything) or an npm script.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** `npx [options] toolsmith [first argument]` in a shell line or prose: the options npx was given, toolsmith's first argument. */
const NPX_COMMAND = /\bnpx((?:\s+-[\w-]+(?:=\S+)?)*)\s+toolsmith\b(?:\s+(\S+))?/g;
/** An MCP client config that runs npx: `"command": "npx", "args": [...]`. */
const NPX_CONFIG = /"command":\s*"npx",\s*"args":\s*\[([^\]]*)\]/g;
/** The npx options that keep it from installing what is not there. */
const NO_INSTALL = new Set(['--no', '--no-install']);

/** Each `npx … toolsmith` of `text` that could resolve from the registry, as `<line>: <match>`. */
function bareNpx(text: string): string[] {
  const found: string[] = [];
  const line = (offset: number) => text.slice(0, offset).split('\n').length;
  for (const match of text.matchAll(NPX_COMMAND)) {
    const options = match[1]!.trim().split(/\s+/);
    if (!options.some((option) => NO_INSTALL.has(option))) found.push(`${line(match.index)}: ${match[0]}`);
    // `npx --no toolsmith --version`: npx reads `--no` as taking a value (`toolsmith`), then `--version` as its own.
    else if (match[2]?.startsWith('-') && !options.includes('--'))
      found.push(`${line(match.index)}: ${match[0]} (npx takes the option: write npx --no -- toolsmith)`);
  }
  for (const match of text.matchAll(NPX_CONFIG)) {
    const args = match[1]!.split(',').map((arg) => arg.trim().replace(/^"|"$/g, ''));
    const at = args.indexOf('toolsmith');
    if (at >= 0 && !args.slice(0, at).some((arg) => NO_INSTALL.has(arg)))
      found.push(`${line(match.index)}: ${match[0]}`);
  }
  return found;
}

describe('the documents run toolsmith only as installed', () => {
  it('tells a bare npx toolsmith from a safe one', () => {
    expect(
      bareNpx(
        [
          'npx toolsmith init',
          'npm ci && npx -y toolsmith generate',
          '`npx --yes toolsmith serve`',
          '{ "command": "npx", "args": ["toolsmith", "serve"] }',
          'npx --no toolsmith call a',
          'npx --no toolsmith --version',
          'npx --no -- toolsmith --version',
          'npx --no-install toolsmith check',
          '{ "command": "npx", "args": ["--no", "toolsmith", "serve"] }',
          'npm run generate; npx prettier --check .',
        ].join('\n'),
      ),
    ).toEqual([
      '1: npx toolsmith init',
      '2: npx -y toolsmith generate',
      '3: npx --yes toolsmith serve`',
      '6: npx --no toolsmith --version (npx takes the option: write npx --no -- toolsmith)',
      '4: "command": "npx", "args": ["toolsmith", "serve"]',
    ]);
  });

  it.each(DOCUMENTS)('%s: every npx toolsmith is npx --no toolsmith', (document) => {
    expect(bareNpx(readFileSync(path.join(REPO, document), 'utf8'))).toEqual([]);
  });
});
