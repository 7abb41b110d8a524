/**
 * Implementation of the tool `json_schema_2020_12_tool` (schemas/json_schema_2020_12_tool.tool.json), called by the conformance scenario `json-schema-2020-12`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { JsonSchema202012ToolToolBase } from '../generated/tools/json-schema-2020-12-tool.base.js';
import type {
  JsonSchema202012ToolArgs,
  JsonSchema202012ToolOutput,
} from '../generated/types/json-schema-2020-12-tool.js';

/** `json_schema_2020_12_tool`: echoes its (validated) arguments; the scenario checks only its listed schema. */
export class JsonSchema202012ToolTool extends JsonSchema202012ToolToolBase {
  async execute(
    args: JsonSchema202012ToolArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<JsonSchema202012ToolOutput>> {
    return { success: true, output: { name: args.name ?? null, address: args.address ?? null } };
  }
}
