import { portableInputSchema } from '../hosts/portable-schema.js';
import { type McpObjectSchema, type McpToolEntry, toMcpTool } from '../mcp/tool.js';
import { formatPointer, parsePointer } from '../schema/json-pointer.js';
import { sourcePointerTokens } from '../schema/json-schema-2020.js';
import { copyJsonValue } from '../schema/walk.js';
import { codeSpan } from '../text/markdown-text.js';
import { buildPerTool, type ManifestProject, type TargetBuild } from './build.js';

/**
 * `manifests/mcp-portable.json`: the `tools/list` result of the portable profile (`serve --profile
 * portable`): each tool's MCP entry with its input schema rewritten into what every host of the host
 * table takes as it is (`portableInputSchema`, src/hosts/portable-schema.ts). Names, descriptions,
 * output schemas and annotations stay as in `mcp.json`; every call is still validated against the full
 * definition. Each keyword that moved into a description is a loss entry, at its place in the definition.
 */
export function buildMcpPortableManifest(project: ManifestProject): TargetBuild<{ tools: McpToolEntry[] }> {
  return buildPerTool<{ tools: McpToolEntry[] }>(project, 'mcp-portable', { tools: [] }, (tool, recorder, content) => {
    const entry = toMcpTool(tool);
    const portable = portableInputSchema(entry.inputSchema);
    for (const move of portable.moved) {
      if (move.prose === undefined) continue; // a `$ref` inlined, an `allOf` merged: nothing the model loses
      const tokens = parsePointer(definitionPointer(tool.inputSchema, move.pointer));
      const keyword = tokens.pop()!;
      const pointer = formatPointer(tokens);
      recorder.entries.push({
        pointer,
        keyword,
        action: 'dropped',
        value: copyJsonValue(move.value),
        message: `${codeSpan(keyword)} at ${codeSpan(pointer)} moved into the description for mcp-portable: ${codeSpan(move.prose)}; ${keyword === 'default' ? 'the runtime fills it in when the argument is absent' : 'the runtime still enforces it'}`,
        carried: move.prose,
      });
    }
    content.tools.push({ ...entry, inputSchema: portable.schema as McpObjectSchema });
  });
}

/** A pointer into a served tool entry's (2020-12) input schema, as a pointer into the definition's own `inputSchema`. */
export function definitionPointer(inputSchema: unknown, served: string): string {
  const [head, ...tokens] = parsePointer(served);
  if (head !== 'inputSchema') return served;
  return formatPointer(['inputSchema', ...sourcePointerTokens(inputSchema, tokens)]);
}
