import Handlebars from 'handlebars';
import type { EmitContext, GeneratedFile, ProjectModel, SharedSchemaModel, ToolModel } from '../model.js';
import { typeHomes } from '../model.js';
import { ownValue } from '../dictionary.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { relativeImport } from '../naming.js';
import { markdownBanner } from './banner.js';
import { MCP_HINTS, mcpAnnotations, type McpHint, type McpToolAnnotations } from '../../src/mcp/tool.js';
import { type LossReport, type TokenReport, tokenTotalRows } from './manifests/index.js';
import { MANIFEST_TARGET_TABLE, MANIFEST_TARGETS, type ManifestTarget } from '../../src/manifest-targets/table.js';
import { definitionKey, valueAt } from '../../src/schema/json-pointer.js';
import { DEFINITION_CONTAINERS } from '../../src/schema/keywords.js';
import { codeSpan } from '../../src/text/markdown-text.js';
import { isObject as isSchemaObject, type SchemaNode as SchemaObject } from '../../src/schema/walk.js';

import { DOC_TEMPLATE_NAMES, type DocTemplates } from '../templates/names.js';

/** What a tool's page tells of the manifests: its losses and the targets that cannot take it. */
interface ToolManifestFacts {
  /** Target → what its manifest loses of the tool; a target missing from it is shown as "not generated". */
  losses?: LossReport[string];
  /** Target → why that target cannot take the tool. */
  unavailable?: Readonly<Partial<Record<ManifestTarget, string>>>;
}

/* ---------- Markdown escaping: every text from a schema reaches a page through one of these ---------- */

/**
 * Escapes schema text for inline Markdown: no emphasis, links, code, HTML or entities survive, and
 * line breaks become spaces (a heading or a table row must stay one line).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/[`*_[\]]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Escapes schema text for a paragraph: inline escaping per line, and no line may open a block. */
export function escapeMarkdownParagraph(text: string): string {
  return text
    .replace(/\r\n|\r/g, '\n')
    .split('\n')
    .map((line) =>
      escapeMarkdown(line.trimStart())
        .replace(/^([#+=-])/, '\\$1')
        .replace(/^(\d+)([.)])/, '$1\\$2'),
    )
    .join('\n')
    .trim();
}

/**
 * Makes already-escaped Markdown fit in one table cell: line breaks as `<br>` (U+2028 and U+2029,
 * which JavaScript Markdown parsers take for line ends, as spaces), and every `|` escaped
 * for the table, also inside code spans, as GFM requires. A pipe counts as escaped when an odd number
 * of backslashes precedes it, so one is added where the count is even (`\\|` → `\\\|`); in a code
 * span a `\|` of the text therefore shows as `|`, the one thing a table cannot carry.
 */
export function tableCell(markdown: string): string {
  return markdown
    .replace(/(\\*)\|/g, (_, backslashes: string) => `${backslashes}${backslashes.length % 2 === 0 ? '\\' : ''}|`)
    .replace(/\r\n|\r|\n/g, '<br>')
    .replace(/[\u2028\u2029]/g, ' ')
    .trim();
}

/** A JSON value as an inline code span. */
function jsonCode(value: unknown): string {
  return codeSpan(JSON.stringify(value));
}

/** A fenced JSON block whose fence no value can close. */
function jsonBlock(value: unknown): string {
  const json = JSON.stringify(value, null, 2) ?? 'null';
  let fence = '```';
  while (json.includes(fence)) fence += '`';
  return `${fence}json\n${json}\n${fence}`;
}

/** GitHub's anchor for a heading made of an identifier. */
function anchorOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]/g, '');
}

/* ---------- Property tables ---------- */

/** One row of an input or output table (`row`); every field is Markdown ready for a table cell. */
type PropertyRow = ReturnType<typeof row>;

/** How a table links a `$ref` (to a section of this page or a shared types page). */
type RefLinker = (ref: string) => { text: string; href: string } | undefined;

/** The keywords the Constraints column shows as written: of strings, of numbers, of arrays and objects. */
const CONSTRAINT_KEYWORDS = [
  ...['minLength', 'maxLength', 'pattern', 'format'],
  ...['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf'],
  ...['minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties'],
];

function typeText(schema: unknown, link: RefLinker): string {
  if (schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0)) return 'any';
  if (!isSchemaObject(schema)) return 'never';
  if (typeof schema.$ref === 'string') {
    const target = link(schema.$ref);
    return target === undefined ? codeSpan(schema.$ref) : `[${escapeMarkdown(target.text)}](${target.href})`;
  }
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches) && schema.type === undefined) {
    return `${schema.oneOf !== undefined ? 'one of' : 'any of'}: ${branches.map((branch) => typeText(branch, link)).join(', ')}`;
  }
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) {
    if (Object.hasOwn(schema, 'const')) return 'constant';
    if (Array.isArray(schema.enum)) return 'enum';
    if (isSchemaObject(schema.properties)) return 'object';
    return 'any';
  }
  return types
    .map((type) => {
      if (type !== 'array') return type;
      if (Array.isArray(schema.items)) return `tuple of ${schema.items.map((item) => typeText(item, link)).join(', ')}`;
      return schema.items === undefined ? 'array' : `array of ${typeText(schema.items, link)}`;
    })
    .join(' or ');
}

function constraintsText(schema: unknown): string {
  if (!isSchemaObject(schema)) return '';
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((value) => jsonCode(value)).join(', ')}`);
  if (Object.hasOwn(schema, 'const')) parts.push(`always ${jsonCode(schema.const)}`);
  for (const keyword of CONSTRAINT_KEYWORDS) {
    if (Object.hasOwn(schema, keyword)) parts.push(codeSpan(`${keyword}: ${JSON.stringify(schema[keyword])}`));
  }
  if (
    schema.additionalProperties !== undefined &&
    schema.additionalProperties !== false &&
    isSchemaObject(schema.properties)
  ) {
    parts.push('other properties allowed');
  }
  return parts.join(', ');
}

/** True when a property's own schema is an inline object whose properties get rows of their own. */
function hasNestedProperties(schema: unknown): schema is SchemaObject {
  return (
    isSchemaObject(schema) &&
    schema.$ref === undefined &&
    isSchemaObject(schema.properties) &&
    Object.keys(schema.properties).length > 0
  );
}

/** The rows of an object schema: nested inline objects flattened with dotted paths (`a.b`, `list[].c`). */
function propertyRows(schema: unknown, link: RefLinker, prefix = ''): PropertyRow[] {
  if (!isSchemaObject(schema) || !isSchemaObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const rows: PropertyRow[] = [];
  for (const name of Object.keys(schema.properties)) {
    const property = schema.properties[name];
    const path = prefix === '' ? name : `${prefix}.${name}`;
    rows.push(row(tableCell(codeSpan(path)), property, link, required.has(name), descriptionOf(property)));
    if (hasNestedProperties(property)) rows.push(...propertyRows(property, link, path));
    else if (isSchemaObject(property) && hasNestedProperties(property.items))
      rows.push(...propertyRows(property.items, link, `${path}[]`));
  }
  return rows;
}

/** A schema's description as a paragraph ('' when it has none). */
function descriptionOf(schema: unknown): string {
  return isSchemaObject(schema) && typeof schema.description === 'string'
    ? escapeMarkdownParagraph(schema.description)
    : '';
}

/** One row of a table: the property (a cell already), its schema's type, default and constraints, and `description`. */
function row(property: string, schema: unknown, link: RefLinker, required: boolean, description: string) {
  return {
    property,
    type: tableCell(typeText(schema, link)),
    required: required ? 'yes' : 'no',
    default: isSchemaObject(schema) && Object.hasOwn(schema, 'default') ? tableCell(jsonCode(schema.default)) : '',
    constraints: tableCell(constraintsText(schema)),
    description: tableCell(description),
  };
}

/**
 * The rows of a schema: its properties; none for an object without properties; one row for any other
 * value (its description only when `withDescription`, since a type section shows it above the table).
 */
function schemaRows(schema: unknown, link: RefLinker, withDescription = true): PropertyRow[] {
  const rows = propertyRows(schema, link);
  if (rows.length > 0) return rows;
  if (isSchemaObject(schema) && schema.type === 'object' && schema.oneOf === undefined && schema.anyOf === undefined)
    return [];
  // A schema whose root is not an object: one row describing the whole value.
  return [row('(the value)', schema, link, true, withDescription ? descriptionOf(schema) : '')];
}

/** A declared error's data in one cell: its properties (`path` string, required ones marked), or its type. */
function dataText(schema: unknown, link: RefLinker): string {
  const rows = propertyRows(schema, link).filter((row) => !row.property.includes('.'));
  if (rows.length === 0) return typeText(schema, link);
  return rows.map((row) => `${row.property} ${row.type}${row.required === 'yes' ? '' : ' (optional)'}`).join(', ');
}

/** A type's section of a page: its name, description and rows (the description above the table, not in it). */
function typeSection(typeName: string, schema: unknown, link: RefLinker) {
  return { name: escapeMarkdown(typeName), description: descriptionOf(schema), rows: schemaRows(schema, link, false) };
}

/* ---------- Pages ---------- */

function toolPagePath(tool: ToolModel): string {
  return `docs/tools/${tool.names.kebab}.md`;
}

function typesPagePath(module: string): string {
  return `docs/types/${module}.md`;
}

/** The link to a type's section: on `fromPage`, or on the types page of the shared file `module`. */
function typeLink(typeName: string, fromPage: string, module?: string): { text: string; href: string } {
  const page = module === undefined ? fromPage : typesPagePath(module);
  return { text: typeName, href: `${page === fromPage ? '' : relativeImport(fromPage, page)}#${anchorOf(typeName)}` };
}

/** Links a tool's bundled `$ref`s: shared types to their page, local definitions to this page's sections. */
function toolLinker(tool: ToolModel, fromPage: string): RefLinker {
  return (ref) => {
    const key = definitionKey(ref);
    if (key === undefined) return undefined;
    const origin = ownValue(tool.definitionOrigins, key);
    if (origin === undefined) return typeLink(key, fromPage);
    return typeLink(origin.typeName, fromPage, origin.kind === 'shared' ? origin.module : undefined);
  };
}

/** What clients assume of a tool that leaves a hint to its default (`MCP_HINT_DEFAULTS`). */
const DEFAULT_MEANINGS: Record<McpHint, string> = {
  readOnlyHint: 'may write',
  destructiveHint: 'may be destructive',
  idempotentHint: 'is not idempotent',
  openWorldHint: 'reaches the outside world',
};

/** The tool page's line on its MCP annotations: the hints `mcp.json` says, and those left to the spec's defaults. */
function describeAnnotations(annotations: McpToolAnnotations): string {
  const said = MCP_HINTS.filter((key) => annotations[key] !== undefined).map(
    (key) => `\`${key}: ${String(annotations[key])}\``,
  );
  const left = MCP_HINTS.filter((key) => annotations[key] === undefined);
  if (left.length === 0) return said.join(', ');
  const names = left.map((key) => `\`${key}\``).join(' and ');
  return (
    `${said.join(', ')}; ${names} left to ${left.length > 1 ? 'their defaults' : 'its default'} ` +
    `(clients assume it ${left.map((key) => DEFAULT_MEANINGS[key]).join(' and ')})`
  );
}

/** Links a shared schema type's refs (`#/definitions/<TypeName>` across the project) to the types pages. */
function sharedLinker(project: ProjectModel, fromPage: string): RefLinker {
  const homes = typeHomes(project);
  return (ref) => {
    const typeName = definitionKey(ref);
    const module = typeName === undefined ? undefined : homes.get(typeName);
    return typeName === undefined || module === undefined ? undefined : typeLink(typeName, fromPage, module);
  };
}

function toolView(tool: ToolModel, ctx: EmitContext, facts: ToolManifestFacts): Record<string, unknown> {
  const page = toolPagePath(tool);
  const link = toolLinker(tool, page);
  // A local definition's schema: under `definitions` or `$defs` of the input or the output schema.
  const definitionOf = (key: string): unknown =>
    [tool.inputSchema, tool.outputSchema]
      .flatMap((root) => DEFINITION_CONTAINERS.map((container) => valueAt(root, [container, key])))
      .find((schema) => schema !== undefined);
  const localTypes = Object.entries(tool.definitionOrigins)
    .filter(([, origin]) => origin.kind === 'local')
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([key, origin]) => typeSection(origin.typeName, definitionOf(key), link));
  const manifests = MANIFEST_TARGETS.map((target) => {
    const reason = facts.unavailable?.[target];
    const entries = reason === undefined ? facts.losses?.[target] : undefined;
    return {
      target: MANIFEST_TARGET_TABLE[target].label,
      unavailable: reason === undefined ? '' : escapeMarkdownParagraph(reason),
      notGenerated: reason === undefined && entries === undefined,
      lossless: entries?.length === 0,
      losses: entries?.map((entry) => entry.message) ?? [],
    };
  });
  return {
    banner: markdownBanner(tool.source.file, ctx).trimEnd(),
    name: tool.name,
    // The fields below that the default template shows in its table are table cells: `|` escaped
    // (also inside code spans, as GFM tables require), no line breaks.
    nameCode: tableCell(codeSpan(tool.name)),
    displayName: escapeMarkdown(tool.displayName),
    description: escapeMarkdownParagraph(tool.description).replace(/\|/g, '\\|'),
    id: tableCell(codeSpan(tool.id)),
    version: tool.version === undefined ? '' : tableCell(codeSpan(tool.version)),
    category: tool.category === undefined ? '' : tableCell(escapeMarkdown(tool.category)),
    source: tableCell(codeSpan(tool.source.file)),
    capabilities: tool.requiredCapabilities.map((capability) => tableCell(codeSpan(capability))),
    sideEffects: tool.hasSideEffects ? 'yes' : 'no',
    approval: tool.hasSideEffects
      ? 'every call needs a decision (the default policy, `side-effects`): the approval gate, or over MCP the user ' +
        'when the client can ask; without one it is refused unless side effects are allowed'
      : 'not asked under the default policy (`side-effects`); asked only when the policy is `always`',
    contentTypes: tool.contentTypes === undefined ? '' : tool.contentTypes.map((kind) => codeSpan(kind)).join(', '),
    timeout: tool.timeoutMs === undefined ? '' : `${tool.timeoutMs} ms`,
    mcpAnnotations: describeAnnotations(mcpAnnotations(tool)),
    input: { rows: schemaRows(tool.inputSchema, link) },
    output: tool.outputSchema === undefined ? undefined : { rows: schemaRows(tool.outputSchema, link) },
    localTypes,
    errors: (tool.errors ?? []).map((error) => ({
      code: tableCell(codeSpan(error.code)),
      retryable: error.retryable === true ? 'yes' : 'no',
      data: error.data === undefined ? 'none' : tableCell(dataText(error.data, link)),
      description: tableCell(escapeMarkdownParagraph(error.description)),
    })),
    examples: tool.examples.map((example, index) => ({
      title: example.description === undefined ? `Example ${index + 1}` : escapeMarkdown(example.description),
      input: jsonBlock(example.input),
      output: example.output === undefined ? '' : jsonBlock(example.output),
    })),
    manifests,
    indexLink: relativeImport(page, 'docs/index.md'),
  };
}

function indexView(project: ProjectModel, ctx: EmitContext, tokens?: TokenReport): Record<string, unknown> {
  // By category, those without one last under "Other".
  const categories = [...new Set(project.tools.map((tool) => tool.category ?? ''))]
    .sort((a, b) => (a === '' ? 1 : b === '' ? -1 : compareStrings(a, b)))
    .map((category) => ({
      name: category === '' ? 'Other' : escapeMarkdown(category),
      // In name order, as normalize sorts the tools.
      tools: project.tools
        .filter((tool) => (tool.category ?? '') === category)
        .map((tool) => ({
          name: tool.name,
          nameCode: codeSpan(tool.name),
          displayName: escapeMarkdown(tool.displayName),
          link: relativeImport('docs/index.md', toolPagePath(tool)),
          summary: tableCell(escapeMarkdownParagraph(tool.description.split(/\r?\n/)[0] ?? '')),
          sideEffects: tool.hasSideEffects ? 'yes' : 'no',
        })),
    }));
  const types = [...project.shared]
    .sort((a, b) => compareStrings(a.module, b.module))
    .map((shared) => ({
      module: codeSpan(shared.module),
      link: relativeImport('docs/index.md', typesPagePath(shared.module)),
    }));
  return {
    banner: markdownBanner('the tool definitions in schemas/', ctx).trimEnd(),
    categories,
    types,
    tokens: tokens === undefined ? [] : tokenTotalRows(tokens),
    tokenReportLink: relativeImport('docs/index.md', 'manifests/token-report.json'),
  };
}

function typesView(shared: SharedSchemaModel, project: ProjectModel, ctx: EmitContext): Record<string, unknown> {
  const page = typesPagePath(shared.module);
  const link = sharedLinker(project, page);
  return {
    banner: markdownBanner(shared.source, ctx).trimEnd(),
    module: codeSpan(shared.module),
    source: codeSpan(shared.source),
    types: shared.types.map((type) => typeSection(type.typeName, type.schema, link)),
    indexLink: relativeImport(page, 'docs/index.md'),
  };
}

/** Compiles the templates in a fresh Handlebars environment (no helpers leak between runs). */
function compile(templates: DocTemplates): Record<(typeof DOC_TEMPLATE_NAMES)[number], Handlebars.TemplateDelegate> {
  const handlebars = Handlebars.create();
  const compiled = {} as Record<(typeof DOC_TEMPLATE_NAMES)[number], Handlebars.TemplateDelegate>;
  for (const name of DOC_TEMPLATE_NAMES) {
    const text = templates[name];
    if (text === undefined)
      throw new Error(
        `Docs template '${name}' is missing. Given: ${Object.keys(templates).sort(compareStrings).join(', ') || 'none'}.`,
      );
    compiled[name] = handlebars.compile(text.replace(/\r\n?/g, '\n'), { noEscape: true });
  }
  return compiled;
}

/** One trailing newline, LF, no trailing spaces on lines; blank-line runs collapsed to one. */
function tidy(markdown: string): string {
  return `${markdown
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/**
 * A renderer over the given templates, compiled here once: a tool's page alone (it depends on that
 * tool only), or the pages that list the project.
 */
export function createDocRenderer(templateTexts: DocTemplates) {
  const templates = compile(templateTexts);
  return {
    /** `docs/tools/<tool>.md`. */
    toolPage: (tool: ToolModel, ctx: EmitContext, facts: ToolManifestFacts): GeneratedFile => ({
      path: toolPagePath(tool),
      content: tidy(templates.tool(toolView(tool, ctx, facts))),
      kind: 'generated',
    }),
    /**
     * `docs/index.md` (tools by category, and what the manifests cost when `tokens` is given) and
     * `docs/types/<module>.md` (one page per shared schema file).
     */
    projectPages: (project: ProjectModel, ctx: EmitContext, tokens?: TokenReport): GeneratedFile[] => [
      { path: 'docs/index.md', content: tidy(templates.index(indexView(project, ctx, tokens))), kind: 'generated' },
      ...[...project.shared]
        .sort((a, b) => compareStrings(a.module, b.module))
        .map((shared): GeneratedFile => ({
          path: typesPagePath(shared.module),
          content: tidy(templates.types(typesView(shared, project, ctx))),
          kind: 'generated',
        })),
    ],
  };
}
