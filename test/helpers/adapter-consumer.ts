/**
 * A consumer of the three adapters, from the subpath exports, with typed tools: test/package.e2e.test.ts
 * type-checks and runs it in a project where the packed tarball is installed with each framework.
 */
export const ADAPTER_CONSUMER = `import { ToolClient, ToolOrchestrator, type ITool } from 'toolsmith-sdk';
import { aiSdkTools } from 'toolsmith-sdk/ai-sdk';
import { openAiAgentsTools } from 'toolsmith-sdk/openai-agents';
import { langChainTools } from 'toolsmith-sdk/langchain';
import type { Tool, ToolExecutionOptions, generateText } from 'ai';
import { RunContext } from '@openai/agents';

interface GreetInput { name: string }
interface GreetOutput { greeting: string }
interface Types { greet: { input: GreetInput; output: GreetOutput } }

const greet: ITool<GreetInput, GreetOutput> = {
  id: 'greet', name: 'greet', displayName: 'Greet', description: 'Greets someone.',
  inputSchema: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
  outputSchema: { type: 'object', required: ['greeting'], additionalProperties: false, properties: { greeting: { type: 'string' } } },
  async execute(args) { return { success: true, output: { greeting: \`Hello, \${args.name}!\` } }; },
};
const orchestrator = new ToolOrchestrator({ tools: [greet] });
const client = new ToolClient<Types>(orchestrator, { gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } });

const ai = aiSdkTools(client, { tools: ['greet'] });
const typed: Tool<GreetInput, GreetOutput> = ai.greet;
// @ts-expect-error the input type survives: name is a string
void ai.greet.execute({ name: 42 }, { toolCallId: 'x', messages: [], context: undefined });

// The per-caller context's type comes from the context function: generateText's toolsContext is typed by tool name.
const perCaller = aiSdkTools(client, {
  tools: ['greet'],
  context: (execution: ToolExecutionOptions<{ capabilities: string[] }>) => ({ ...client.defaults, personaCapabilities: execution.context.capabilities }),
});
type ToolsContext = Parameters<typeof generateText<typeof perCaller>>[0]['toolsContext'];
export const toolsContext: ToolsContext = { greet: { capabilities: ['capability:greet'] } };
// @ts-expect-error capabilities are strings
export const wrongContext: ToolsContext = { greet: { capabilities: [1] } };

const [agents] = openAiAgentsTools(client, { tools: ['greet'] });
// The Agents SDK's tool is typed with the input: its approval policy gets GreetInput.
export const approval = () => agents.needsApproval(new RunContext(), { name: 'Ada' });
// @ts-expect-error the input type survives: name is a string
export const wrongApproval = () => agents.needsApproval(new RunContext(), { name: 42 });
const [langchain] = langChainTools(client, { tools: ['greet'] });
const name: 'greet' = langchain.name;
// @ts-expect-error the input type survives
void langchain.func({ name: 42 });
// @ts-expect-error only registered names
export const misspelled = () => aiSdkTools(client, { tools: ['gret'] });

const results = {
  ai: await typed.execute!({ name: 'Ada' }, { toolCallId: 'call-1', messages: [], context: undefined }),
  agents: await agents.invoke(new RunContext(), '{"name":"Bob"}'),
  agentsStrict: agents.strict,
  langchain: await langchain.invoke({ name: 'Cy' }),
  name,
};
console.log(JSON.stringify(results));
await orchestrator.shutdown();
`;
