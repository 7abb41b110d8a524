// Runs Gemini CLI's own MCP code path (@google/gemini-cli-core) against MCP servers, without a model: its
// discovery (Config.initialize → the MCP client manager), the function declarations its model would get
// (ToolRegistry.getFunctionDeclarations), its parameter validator (the tool's validateToolParams) and calls
// through the tool's invocation (build → execute), `wait_for_previous` included when the caller gives it.
//
//   node gemini-driver.mjs <request.json> <answer.json>
//
// request: { "servers": { "<name>": { "command", "args", "cwd", "env" } | { "httpUrl" } },
//            "validate"?: [{ "server", "tool", "args" }], "calls"?: [{ "server", "tool", "args" }] }
//            (tool: the server's own name for it)
// answer:  { "servers": { "<name>": { "error", "tools": [{ "name", "serverToolName", "declared", "parameters" }] } },
//            "validate": [{ …, "error" }], "calls": [{ …, "error", "llmContent" }] }
// The answer goes to a file: Gemini CLI's core logs to stdout and stderr.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Config, DiscoveredMCPTool } from '@google/gemini-cli-core';

const [requestFile, answerFile] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestFile, 'utf8'));
const workspace = mkdtempSync(path.join(tmpdir(), 'gemini-driver-'));

const config = new Config({
  sessionId: 'toolsmith-host-test',
  targetDir: workspace,
  cwd: workspace,
  debugMode: false,
  model: 'gemini-2.5-pro',
  mcpServers: request.servers,
  trustedFolder: true,
  interactive: false,
});

/** What Gemini CLI made of one server: its error, if any, and each tool as its model would see it. */
function describeServer(name, discovered, declarations) {
  const tools = discovered
    .filter((tool) => tool.serverName === name)
    .map((tool) => {
      const declaration = declarations.get(tool.getFullyQualifiedName());
      return {
        name: tool.getFullyQualifiedName(),
        serverToolName: tool.serverToolName,
        declared: declaration !== undefined,
        parameters: declaration?.parametersJsonSchema,
      };
    });
  return { error: config.getMcpClientManager()?.getLastError(name) ?? null, tools };
}

async function call(tool, args) {
  try {
    const result = await tool.build(args).execute({ abortSignal: new AbortController().signal });
    return { error: result.error?.message ?? null, llmContent: result.llmContent };
  } catch (error) {
    return { error: `refused before the call: ${error instanceof Error ? error.message : error}` };
  }
}

const answer = { servers: {}, validate: [], calls: [] };
try {
  await config.initialize();
  const registry = config.getToolRegistry();
  const discovered = registry.getAllTools().filter((tool) => tool instanceof DiscoveredMCPTool);
  const declarations = new Map(
    registry.getFunctionDeclarations().map((declaration) => [declaration.name, declaration]),
  );
  for (const name of Object.keys(request.servers))
    answer.servers[name] = describeServer(name, discovered, declarations);
  const find = (server, name) => discovered.find((tool) => tool.serverName === server && tool.serverToolName === name);
  for (const entry of request.validate ?? []) {
    const tool = find(entry.server, entry.tool);
    answer.validate.push({
      ...entry,
      error: tool === undefined ? 'no such tool' : tool.validateToolParams(entry.args),
    });
  }
  for (const entry of request.calls ?? []) {
    const tool = find(entry.server, entry.tool);
    answer.calls.push({ ...entry, ...(tool === undefined ? { error: 'no such tool' } : await call(tool, entry.args)) });
  }
} catch (error) {
  answer.error = error instanceof Error ? error.stack : String(error);
} finally {
  writeFileSync(answerFile, `${JSON.stringify(answer, null, 2)}\n`);
  await config.getMcpClientManager()?.stop();
  rmSync(workspace, { recursive: true, force: true });
  process.exit(0);
}
