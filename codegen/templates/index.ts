import { existsSync } from 'node:fs';
import { readRegularFile } from '../load.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOC_TEMPLATE_NAMES, type DocTemplates } from './names.js';

/** The folder of the default templates (this folder). */
const DEFAULT_TEMPLATES_DIR = dirname(fileURLToPath(import.meta.url));

/** A docs template that cannot be read (a FIFO, a folder, a dangling link): generate reports it as a problem. */
export class TemplateReadError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'TemplateReadError';
  }
}

/**
 * Reads the docs templates: `<name>.hbs` from `dir` when given and present there, otherwise the default
 * one, file by file, so a user can override only the pages they care about (`--templates DIR`).
 */
export function loadTemplates(dir?: string): DocTemplates {
  const templates: Record<string, string> = {};
  for (const name of DOC_TEMPLATE_NAMES) {
    const override = dir === undefined ? undefined : join(dir, `${name}.hbs`);
    const file = override !== undefined && existsSync(override) ? override : join(DEFAULT_TEMPLATES_DIR, `${name}.hbs`);
    // Never blocks on a FIFO or reads a folder: a template that is not a regular file is an error naming it.
    const read = readRegularFile(file);
    if ('error' in read) throw new TemplateReadError(file, `not read: ${read.error}`, read.hint);
    templates[name] = read.bytes.toString('utf8');
  }
  return templates;
}
