/**
 * Type-level check (run by `tsc --noEmit -p tsconfig.json`): the manifest entry types the emitters declare
 * are assignable to the official SDK types.
 */
import type { Tool as AnthropicSdkTool } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionFunctionTool, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AnthropicTool } from '../../src/manifest-targets/anthropic.js';
import type { OpenAiTool } from '../../src/manifest-targets/openai.js';

export function asOpenAi(tool: OpenAiTool): ChatCompletionFunctionTool {
  return tool;
}

export function asOpenAiUnion(tools: OpenAiTool[]): ChatCompletionTool[] {
  return tools;
}

export function asAnthropic(tool: AnthropicTool): AnthropicSdkTool {
  return tool;
}
