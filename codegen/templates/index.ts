import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOC_TEMPLATE_NAMES, type DocTemplates } from './names.js';

/** The folder of the default templates (this folder). */
export const DEFAULT_TEMPLATES_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * Reads the docs templates: `<name>.hbs` from `dir` when given and present there, otherwise the default
 * one, file by file, so a user can override only the pages they care about (`--templates DIR`).
 */
export function loadTemplates(dir?: string): DocTemplates {
  const templates: Record<string, string> = {};
  for (const name of DOC_TEMPLATE_NAMES) {
    const override = dir === undefined ? undefined : join(dir, `${name}.hbs`);
    const file = override !== undefined && existsSync(override) ? override : join(DEFAULT_TEMPLATES_DIR, `${name}.hbs`);
    templates[name] = readFileSync(file, 'utf8');
  }
  return templates;
}
