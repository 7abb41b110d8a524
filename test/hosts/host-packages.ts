/**
 * The real host code the end-to-end tests run — Gemini CLI's core and the MCP Inspector — is this
 * folder's own small project (`package.json`, `package-lock.json`), not a dependency of toolsmith:
 * about 0.5 GB installed, so a contributor's `npm ci` stays light. `installHostPackages()` runs
 * `npm ci` here when `node_modules` is missing or was installed from another lockfile.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** This folder. */
export const HOST_PROJECT = path.dirname(fileURLToPath(import.meta.url));
/** The Inspector's launcher (`mcp-inspector`), run with `--cli`. */
export const INSPECTOR_BIN = path.join(
  HOST_PROJECT,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

const STAMP = path.join(HOST_PROJECT, 'node_modules/.toolsmith-lockfile-sha256');

function lockfileHash(): string {
  return createHash('sha256')
    .update(readFileSync(path.join(HOST_PROJECT, 'package-lock.json')))
    .digest('hex');
}

/** Installs the host packages from the lockfile unless this very lockfile is installed already; returns whether it ran npm. */
export async function installHostPackages(): Promise<boolean> {
  const hash = lockfileHash();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return false;
  await promisify(execFile)('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: HOST_PROJECT,
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(STAMP, hash);
  return true;
}
