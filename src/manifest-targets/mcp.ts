import { isMcpObjectSchema, type McpToolEntry, toMcpTool } from '../mcp/tool.js';
import { buildPerTool, type ManifestProject, type TargetBuild } from './build.js';

/** `{ tools }`: an MCP `tools/list` result. */
export interface McpToolsManifest {
  tools: McpToolEntry[];
}

/**
 * `manifests/mcp.json`: the `tools/list` result the MCP server answers (each entry made by the function
 * the server calls with an `ITool`). Schemas are published whole (with `$schema` draft-07); the only loss
 * is an output schema whose root is not an object, which MCP cannot carry.
 */
export function buildMcpManifest(project: ManifestProject): TargetBuild<McpToolsManifest> {
  return buildPerTool<McpToolsManifest>(project, 'mcp', { tools: [] }, (tool, recorder, content) => {
    if (tool.outputSchema !== undefined && !isMcpObjectSchema(tool.outputSchema))
      recorder.dropped(
        '/outputSchema',
        'outputSchema',
        tool.outputSchema,
        'MCP output schemas must have an object root',
      );
    content.tools.push(toMcpTool(tool));
  });
}
