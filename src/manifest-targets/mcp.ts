import { isMcpObjectSchema, type McpToolEntry, toMcpTool } from '../mcp/tool.js';
import type { ManifestProject as ProjectModel, ManifestTool as ToolModel } from './build.js';
import { compareStrings, emptyBuild, LossRecorder, setOwn, type TargetBuild } from './build.js';

/** The MCP entry of one tool, from the model (the same function the MCP server calls with an `ITool`). */
export function toMcpToolFromModel(tool: ToolModel): McpToolEntry {
  return toMcpTool(tool);
}

/**
 * `manifests/mcp.json`: the `tools/list` result the MCP server answers. Schemas are published whole (with
 * `$schema` draft-07); the only loss is an output schema whose root is not an object, which MCP cannot carry.
 */
export function buildMcpManifest(project: ProjectModel): TargetBuild<{ tools: McpToolEntry[] }> {
  const build = emptyBuild<{ tools: McpToolEntry[] }>({ tools: [] });
  for (const tool of [...project.tools].sort((a, b) => compareStrings(a.name, b.name))) {
    const recorder = new LossRecorder('mcp');
    if (tool.outputSchema !== undefined && !isMcpObjectSchema(tool.outputSchema)) {
      recorder.dropped(
        '/outputSchema',
        'outputSchema',
        tool.outputSchema,
        'MCP output schemas must have an object root, so the client is not told the output shape; the result still arrives as text',
      );
    }
    build.content.tools.push(toMcpToolFromModel(tool));
    setOwn(build.losses, tool.name, recorder.entries);
  }
  return build;
}
