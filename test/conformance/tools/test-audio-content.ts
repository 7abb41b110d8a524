/**
 * Implementation of the tool `test_audio_content` (schemas/test_audio_content.tool.json), called by the conformance scenario `tools-call-audio`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestAudioContentToolBase } from '../generated/tools/test-audio-content.base.js';
import type { TestAudioContentArgs, TestAudioContentOutput } from '../generated/types/test-audio-content.js';
import { SILENT_WAV } from './samples.js';

/** `test_audio_content`: one audio block, 10 ms of silent WAV (the scenario wants `audio/wav`). */
export class TestAudioContentTool extends TestAudioContentToolBase {
  readonly contentTypes = ['audio'] as const;

  async execute(
    _args: TestAudioContentArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestAudioContentOutput>> {
    return { success: true, content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] };
  }
}
