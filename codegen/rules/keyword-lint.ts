import { classifyFormat, classifyKeyword, DIALECT_URIS, KNOWN_FORMATS } from '../../src/schema/dialect.js';
import type { SchemaDialect } from '../../src/schema/keywords.js';
import type { Diagnostics } from '../problems.js';
import type { SourceFile } from '../load.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { walkSchema } from '../../src/schema/walk.js';
import { type SchemaRule, schemaRule } from './rule.js';

/**
 * Keywords and formats a schema's dialect does not define, each at its pointer: a near-typo of a
 * known one (`requried`, `emial`) or a keyword Ajv would give a meaning the dialect does not
 * (`nullable`) is an error; anything else is ignored by the dialect, so it is a warning
 * (`optional`, `markdownDescription`, a vendor annotation, `format: "json"`).
 */
export const keywordLint: SchemaRule = schemaRule('keyword-lint', (source, schema, pointer, diagnostics, dialect) => {
  walkSchema(schema, pointer, (node, at) => {
    for (const key of Object.keys(node))
      lintKeyword(source, key, `${at}/${escapePointerSegment(key)}`, dialect, diagnostics);
    if (Object.hasOwn(node, 'format') && typeof node.format === 'string')
      lintFormat(source, node.format, `${at}/format`, diagnostics);
  });
});

/** Where an unknown keyword is reported: at its name. */
const AT_KEY = { atKey: true };

function lintKeyword(source: SourceFile, key: string, where: string, dialect: SchemaDialect, diagnostics: Diagnostics) {
  const verdict = classifyKeyword(key, dialect);
  const unknown = `unknown keyword "${key}"`;
  if (verdict.kind === 'typo') {
    const hint = `did you mean \`${verdict.suggestion}\`? (an extension keyword must start with \`x-\`)`;
    diagnostics.error(source, where, unknown, hint, AT_KEY);
  } else if (verdict.kind === 'ajv-only') {
    diagnostics.error(source, where, unknown, ajvOnlyHint(key, dialect), AT_KEY);
  } else if (verdict.kind === 'other-dialect') {
    const hint = `declare \`"$schema": "${DIALECT_URIS[verdict.dialect]}"\` at the schema's root to use it, or remove it`;
    const message = `the keyword "${key}" is ignored: it is ${verdict.dialect}, and this schema is ${dialect}`;
    diagnostics.warning(source, where, message, hint, AT_KEY);
  } else if (verdict.kind !== 'known') {
    diagnostics.warning(source, where, `${unknown} is ignored`, ignoredHint(key, dialect), AT_KEY);
  }
}

function ajvOnlyHint(key: string, dialect: SchemaDialect): string {
  if (key === 'nullable') return `${dialect} has no \`nullable\`: use \`"type": ["string", "null"]\``;
  if (key === 'dependencies')
    return '2020-12 splits `dependencies` into `dependentRequired` (lists) and `dependentSchemas` (schemas)';
  if (key === 'id') return 'the schema id is `$id` since draft-06';
  return `${dialect} does not define it, but Ajv would apply it: remove it (an extension keyword must start with \`x-\`)`;
}

function ignoredHint(key: string, dialect: SchemaDialect): string {
  if (key === 'optional')
    return `${dialect} has no \`optional\`: a property is optional unless its parent lists it in \`required\``;
  if (key === 'example') return `${dialect}'s keyword is \`examples\` (an array); \`example\` is OpenAPI's`;
  return `${dialect} ignores keywords it does not define; remove it, or rename it \`x-${key}\` to mark it as an extension`;
}

function lintFormat(source: SourceFile, format: string, where: string, diagnostics: Diagnostics) {
  const verdict = classifyFormat(format);
  if (verdict.kind === 'typo') {
    diagnostics.error(
      source,
      where,
      `unknown format "${format}"`,
      `did you mean \`${verdict.suggestion}\`? Known formats: ${KNOWN_FORMATS.join(', ')}`,
    );
  } else if (verdict.kind === 'ignored') {
    diagnostics.warning(
      source,
      where,
      `unknown format "${format}" is ignored: every value passes it`,
      `toolsmith checks these formats: ${KNOWN_FORMATS.join(', ')}`,
    );
  }
}
