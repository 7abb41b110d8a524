/**
 * The typed module beside each target's JSON (`manifests/<target>.ts`): the manifest as a constant of
 * toolsmith's entry type, read from the JSON beside it.
 */
import type { EmitContext, GeneratedFile } from '../../model.js';
import { textFile } from './assembled-file.js';
import { runtimeSpecifier } from '../../naming.js';
import { banner as codeBanner } from '../banner.js';
import {
  MANIFEST_TARGET_TABLE,
  type ManifestTarget,
  type ManifestTargetEntry,
} from '../../../src/manifest-targets/table.js';

/**
 * The typed module of a target (`manifests/<target>.ts`): the JSON as a constant typed with toolsmith's
 * entry type (assignable to the provider SDK's), so importing it keeps `type: "function"` a literal instead
 * of widening it to `string` as a JSON import does. It reads the JSON beside it (as the lazy registry reads catalog.json) into a
 * constant of the entry type. A few lines whatever the tool count, so neither generate nor a project's
 * tsc handles the manifest twice.
 */
export function typedModule(target: ManifestTarget, ctx: EmitContext, searches: boolean): GeneratedFile {
  const { name, type, element } = typedEntry(target, searches);
  const file = MANIFEST_TARGET_TABLE[target].file.replace(/\.json$/, '.ts');
  const json = MANIFEST_TARGET_TABLE[target].file.slice('manifests/'.length);
  const content = [
    codeBanner('the tool definitions', ctx).trimEnd(),
    "import { readFileSync } from 'node:fs';",
    `import type { ${element} } from '${runtimeSpecifier(file, ctx.runtimeImport)}';`,
    '',
    `/** The ${target} manifest (manifests/${json}), typed: a JSON import would widen \`type: "function"\` to \`string\`. */`,
    `export const ${name}: ${type} = JSON.parse(readFileSync(new URL('./${json}', import.meta.url), 'utf8'));`,
    '',
  ].join('\n');
  return textFile(file, content);
}

/**
 * The typed module's constant, type and imported type: when the target lists a search tool under
 * deferred loading (`searches`, `planManifests`), the entry union that includes it.
 */
function typedEntry(target: ManifestTarget, searches: boolean): ManifestTargetEntry['typed'] {
  const typed = MANIFEST_TARGET_TABLE[target].typed;
  if (!searches) return typed;
  const element = target === 'anthropic' ? 'AnthropicManifestEntry' : 'OpenAiResponsesManifestEntry';
  return { name: typed.name, type: `${element}[]`, element };
}
