import type { ToolsmithConfig } from './generated/config-type.js';

export type { ToolsmithConfig } from './generated/config-type.js';

/**
 * Types a `toolsmith.config.ts` (`export default defineConfig({ out: 'sdk' })`): the identity
 * function, so an editor completes and checks every key against the type generated from the config schema.
 */
export function defineConfig(config: ToolsmithConfig): ToolsmithConfig {
  return config;
}
