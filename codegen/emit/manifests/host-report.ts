/**
 * The host portability report, a tool's part of `manifests/loss-report.{json,md}` under `hosts`: for
 * each host of the table (src/hosts/host-table.ts) and each served profile — `exact` (the entry of
 * `mcp.json`) and `portable` (the entry of `mcp-portable.json`) — what the host does to the tool:
 * unaltered, altered (what), rejected, or `server-down` (the tool takes its whole server down), each
 * finding placed at its pointer in the definition. For a host the project lists (`manifests.hosts`), a
 * rejection or a server-wide failure under the profile it serves (`manifests.servedProfile`) is a
 * warning, so `--strict` fails on it; everything else is information. Names two tools share once a
 * host renames them are found over the whole project (`withNameCollisions`) and told in each tool's part.
 */
import { checkTool, nameCollisions, verdictOf } from '../../../src/hosts/check-tool.js';
import {
  DEFAULT_SERVER_NAME,
  type HostFinding,
  type HostProfile,
  type HostVerdict,
  type ServedTool,
} from '../../../src/hosts/host-profile.js';
import { HOSTS } from '../../../src/hosts/host-table.js';
import { codeSpan } from '../../../src/text/markdown-text.js';
import { portableInputSchema } from '../../../src/hosts/portable-schema.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { definitionPointer } from '../../../src/manifest-targets/mcp-portable.js';
import { toMcpTool } from '../../../src/mcp/tool.js';
import type { Problem, ToolModel } from '../../model.js';
import type { ManifestOptions } from './types.js';

/** What `toolsmith serve` lists: each tool's exact schema, or the portable one. */
type ServedProfile = 'exact' | 'portable';

/** One thing a host does to a tool, placed in the definition. */
interface ReportFinding {
  /** A pointer into the definition file (`/inputSchema/properties/query/oneOf`, `/name`). */
  pointer: string;
  rule: string;
  effect: HostFinding['effect'];
  scope?: HostFinding['scope'];
  message: string;
  fix?: string;
}

/** A host's verdict on a tool under one profile, and why. */
interface ProfileVerdict {
  verdict: HostVerdict;
  findings: ReportFinding[];
}

/** A tool's part of the host report: per host id, per profile. */
export interface ToolHostReport {
  json: Record<string, Record<ServedProfile, ProfileVerdict>>;
  markdown: string;
  /** Rejections and server-wide failures of listed hosts under the served profile. */
  warnings: Problem[];
}

/**
 * A name a host changes beyond its prefix: under the portable profile, which never renames a tool, the
 * host does not take the tool as it is — a rejection, with the fix.
 */
function renameRejected(finding: HostFinding, host: HostProfile): HostFinding {
  if (finding.pointer !== '/name' || finding.effect !== 'alters') return finding;
  return {
    ...finding,
    effect: 'rejects',
    message: `${finding.message}: the portable profile never renames a tool, so ${host.name} cannot take this one as it is`,
  };
}

/**
 * `options` with the names the hosts fold together among `names` (every tool of the project, listed by
 * the server in name order), by tool name: a project-wide check, made once where the project is known.
 */
export function withNameCollisions(options: ManifestOptions, names: readonly string[]): ManifestOptions {
  const listed = [...names].sort(compareStrings);
  const serverName = options.serverName ?? DEFAULT_SERVER_NAME;
  const found = new Map<string, HostFinding[]>();
  for (const host of HOSTS)
    for (const [index, finding] of nameCollisions(listed, host, { serverName }))
      found.set(listed[index]!, [...(found.get(listed[index]!) ?? []), finding]);
  return { ...options, nameCollisions: found };
}

/** The check of one served entry against one host, its findings placed in the definition. */
function verdictFor(
  tool: ToolModel,
  served: ServedTool,
  host: HostProfile,
  options: ManifestOptions,
  profile: ServedProfile,
): ProfileVerdict {
  const check = checkTool(served, host, { serverName: options.serverName ?? DEFAULT_SERVER_NAME });
  const collisions = (options.nameCollisions?.get(tool.name) ?? []).filter((finding) => finding.host === host.id);
  const own = [...check.findings, ...collisions];
  const findings = profile === 'portable' ? own.map((finding) => renameRejected(finding, host)) : own;
  return {
    verdict: verdictOf(findings),
    findings: findings.map(({ pointer, rule, effect, scope, message, fix }) => ({
      pointer: definitionPointer(tool.inputSchema, pointer),
      rule,
      effect,
      message,
      ...(scope !== 'tool' ? { scope } : {}),
      ...(fix !== undefined ? { fix } : {}),
    })),
  };
}

/** True for a verdict that is a warning for a listed host under the served profile. */
function refuses(verdict: HostVerdict): boolean {
  return verdict === 'rejected' || verdict === 'server-down';
}

/** What every host of the table does to `tool` under both profiles, and the warnings the project's hosts raise. */
export function toolHostReport(tool: ToolModel, options: ManifestOptions): ToolHostReport {
  const served = options.servedProfile ?? 'exact';
  const listed = new Set<string>(options.hosts ?? []);
  const exact = toMcpTool(tool);
  const entries: Record<ServedProfile, ServedTool> = {
    exact,
    portable: { ...exact, inputSchema: portableInputSchema(exact.inputSchema).schema },
  };
  const json: ToolHostReport['json'] = {};
  const lines: string[] = [`- **hosts** (served profile: ${served}):`];
  const warnings: Problem[] = [];
  for (const host of HOSTS) {
    const byProfile = {
      exact: verdictFor(tool, entries.exact, host, options, 'exact'),
      portable: verdictFor(tool, entries.portable, host, options, 'portable'),
    };
    json[host.id] = byProfile;
    lines.push(`  - **${host.id}**: exact ${byProfile.exact.verdict}, portable ${byProfile.portable.verdict}`);
    for (const profile of ['exact', 'portable'] as const)
      for (const finding of byProfile[profile].findings)
        if (finding.effect === 'rejects' || finding.effect === 'alters')
          lines.push(`    - ${profile}: ${finding.message} (${codeSpan(finding.pointer)})`);
    const mine = byProfile[served];
    if (!listed.has(host.id) || !refuses(mine.verdict)) continue;
    // A name two tools share is refused under both profiles: serving the other one does not help.
    const other = refuses(byProfile[served === 'exact' ? 'portable' : 'exact'].verdict)
      ? ''
      : ' or serve the other profile (manifests.servedProfile),';
    for (const finding of mine.findings.filter((candidate) => candidate.effect === 'rejects'))
      warnings.push({
        file: tool.source.file,
        line: 1,
        column: 1,
        pointer: finding.pointer,
        severity: 'warning',
        message: `${host.name} (\`${host.id}\`, a host in manifests.hosts) ${
          finding.scope === undefined ? 'does not take this tool' : 'refuses the whole server for this tool'
        } under the ${served} profile: ${finding.message}.`,
        hint: `${finding.fix ?? 'see manifests/loss-report.md'};${other} or take ${host.id} out of manifests.hosts`,
      });
  }
  return { json, markdown: lines.join('\n'), warnings };
}
