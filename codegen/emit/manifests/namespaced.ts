/**
 * The namespaced OpenAI Responses manifest (`manifests.deferLoading.namespaces`): the deferred
 * functions grouped in one namespace per category, made from the flat manifest's entries.
 */
import { posix } from 'node:path';
import { MANIFEST_TARGET_TABLE } from '../../../src/manifest-targets/table.js';
import type { ToolModel } from '../../model.js';
import { NAMESPACE_ADVISED_SIZE, namespacedResponsesTools } from '../../../src/manifest-targets/defer-loading.js';
import type { ManifestEmission, ManifestOptions } from './types.js';
import { TOKEN_REPORT_PATH } from './token-report.js';
import { textFile } from './assembled-file.js';

/** Where the namespaced Responses manifest goes (`deferLoading.namespaces`). */
const NAMESPACED_RESPONSES_PATH = 'manifests/openai-responses-namespaced.json';

/** The path of the flat Responses manifest when the run makes a namespaced one of it (`deferLoading.namespaces`). */
export function namespacedSource(options: ManifestOptions): string | undefined {
  return options.deferLoading?.namespaces === true ? MANIFEST_TARGET_TABLE['openai-responses'].file : undefined;
}

/**
 * Adds to `emission` the namespaced Responses manifest when the run writes one (`deferLoading.namespaces`
 * with the openai-responses target), made from the entries of the flat one (`namespacedResponsesTools`)
 * grouped by the `tools`' categories; a namespace over the advised size is a warning placed at its name.
 */
export function addNamespaced(
  emission: ManifestEmission,
  tools: readonly Pick<ToolModel, 'name' | 'category'>[],
  options: ManifestOptions,
): void {
  const source = namespacedSource(options);
  const flat = emission.files.find((file) => file.path === source);
  if (flat === undefined) return;
  const categories = new Map(tools.map((tool) => [tool.name, tool.category]));
  const { content, oversized } = namespacedResponsesTools(JSON.parse(flat.content), (tool) => categories.get(tool));
  const text = `${JSON.stringify(content, null, 2)}\n`;
  emission.files.push(textFile(NAMESPACED_RESPONSES_PATH, text));
  const folder = posix.dirname(options.tokenReportFile ?? TOKEN_REPORT_PATH);
  for (const { name, size } of oversized) {
    const at = text.indexOf(`    "type": "namespace",\n    "name": ${JSON.stringify(name)}`);
    const index = content.findIndex((entry) => entry.type === 'namespace' && entry.name === name);
    emission.warnings.push({
      file: `${folder}/${posix.basename(NAMESPACED_RESPONSES_PATH)}`,
      line: text.slice(0, at).split('\n').length + 1,
      column: 5,
      pointer: `/${index}/name`,
      severity: 'warning',
      message: `Namespace '${name}' holds ${size} functions, more than the ${NAMESPACE_ADVISED_SIZE} OpenAI advises per namespace.`,
      hint: 'split the category (`category` in the definitions), or keep some of its tools loaded (`manifests.deferLoading.loaded`)',
    });
  }
}
