/**
 * Content blocks a successful tool result may carry beside its `output`, in MCP's shapes (the
 * `content` of a `tools/call` result), and their check in the call pipeline's output step.
 */
import { isObject } from '../schema/walk.js';

/** Plain text. */
export interface TextContent {
  type: 'text';
  text: string;
}

/** An image, base64-encoded. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

/** Audio, base64-encoded. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
}

/** A resource's contents embedded in the result: `text`, or `blob` (base64). */
export interface EmbeddedResource {
  type: 'resource';
  resource:
    | { uri: string; mimeType?: string; text: string; blob?: undefined }
    | { uri: string; mimeType?: string; blob: string; text?: undefined };
}

/** A link to a resource the client may read. */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** One content block. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** The kind of a content block (its `type`). */
export type ContentKind = ContentBlock['type'];

/** Every kind, in MCP's order. */
export const CONTENT_KINDS: readonly ContentKind[] = Object.freeze([
  'text',
  'image',
  'audio',
  'resource',
  'resource_link',
]);

/**
 * Default of the orchestrator's `maxContentBytes`: the most bytes a result's content blocks may
 * carry in all (base64 decoded, text as UTF-8), 16 MiB.
 */
export const DEFAULT_MAX_CONTENT_BYTES = 16 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes a result's blocks carry so far, against the limit for all of them. */
interface ContentBudget {
  used: number;
  readonly max: number;
}

/** Counts `bytes` of `field` against the budget: a sentence when they bring the content over it. */
function spend(field: string, bytes: number, budget: ContentBudget): string | undefined {
  budget.used += bytes;
  if (budget.used <= budget.max) return undefined;
  const before = budget.used === bytes ? '' : ` (${budget.used} with the blocks before it)`;
  return `${field} holds ${bytes} bytes${before}, over the limit of ${budget.max} for a result's content (maxContentBytes)`;
}

function checkBase64(field: string, value: unknown, budget: ContentBudget): string | undefined {
  if (typeof value !== 'string')
    return `${field} must be a base64 string, got ${value === null ? 'null' : typeof value}`;
  if (value.length % 4 !== 0) return `${field} is not base64 data`;
  // Counted from the length before the data is read: an oversize block is refused without a scan.
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (
    spend(field, (value.length / 4) * 3 - padding, budget) ??
    (BASE64.test(value) ? undefined : `${field} is not base64 data`)
  );
}

function checkText(field: string, value: unknown, budget: ContentBudget): string | undefined {
  if (typeof value !== 'string') return `${field} must be a string, got ${value === null ? 'null' : typeof value}`;
  return spend(field, Buffer.byteLength(value, 'utf8'), budget);
}

function checkString(field: string, value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? undefined : `${field} must be a non-empty string`;
}

function checkBlock(block: unknown, budget: ContentBudget): string | undefined {
  if (!isObject(block)) return 'is not an object';
  const type = block.type;
  switch (type) {
    case 'text':
      return checkText('text', block.text, budget);
    case 'image':
    case 'audio':
      return checkString('mimeType', block.mimeType) ?? checkBase64('data', block.data, budget);
    case 'resource': {
      const resource = block.resource;
      if (!isObject(resource)) return 'resource must be an object {uri, mimeType?, text | blob}';
      const uri = checkString('resource.uri', resource.uri);
      if (uri !== undefined) return uri;
      if (resource.mimeType !== undefined && typeof resource.mimeType !== 'string')
        return 'resource.mimeType must be a string';
      if (resource.text !== undefined && resource.blob !== undefined)
        return 'resource has both text and blob; give one';
      if (resource.text !== undefined) return checkText('resource.text', resource.text, budget);
      if (resource.blob !== undefined) return checkBase64('resource.blob', resource.blob, budget);
      return 'resource has neither text nor blob';
    }
    case 'resource_link':
      if (block.mimeType !== undefined && typeof block.mimeType !== 'string') return 'mimeType must be a string';
      return checkString('uri', block.uri) ?? checkString('name', block.name);
    default:
      return `has unknown type ${typeof type === 'string' ? `'${type.slice(0, 64)}'` : String(type)}; expected one of ${CONTENT_KINDS.join(', ')}`;
  }
}

/**
 * The first problem of a result's `content`, as a sentence naming the block's index, or
 * `undefined` when every block is well formed, of a kind in `declared` (when the definition
 * declares its kinds), and all of them together carry at most `maxBytes`.
 */
export function findContentProblem(
  content: unknown,
  maxBytes: number,
  declared: readonly string[] | undefined,
): string | undefined {
  if (!Array.isArray(content)) return `content must be an array of content blocks, got ${typeof content}`;
  const budget: ContentBudget = { used: 0, max: maxBytes };
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    const problem = checkBlock(block, budget);
    if (problem !== undefined) return `content[${index}] ${problem}`;
    const type = (block as { type: string }).type;
    if (declared !== undefined && !declared.includes(type))
      return `content[${index}] is of kind '${type}', which the definition does not declare (contentTypes: ${declared.join(', ') || 'none'})`;
  }
  return undefined;
}
