/*
 * The checks: a tool (a `tools/list` entry) × a host row → what the host does to it, every finding
 * placed at its JSON pointer, and a verdict (unaltered / altered / rejected / server-down); a server's
 * whole list × a host → the same per tool, plus what takes the whole server down (one tool's
 * non-object root in Claude Code, a combinator anywhere in Cursor, two names one host folds together).
 * Pure functions of the table: the generator's report and the tests call them.
 */
import { codeSpan } from '../text/markdown-text.js';
import { escapePointerSegment } from '../schema/json-pointer.js';
import { isObject } from '../schema/walk.js';
import {
  type CheckContext,
  DEFAULT_SERVER_NAME,
  type HostFinding,
  type HostProfile,
  type HostVerdict,
  type ServedTool,
  type ServerCheck,
  type ToolCheck,
} from './host-profile.js';
import { INPUT_SCHEMA } from './host-rules.js';

/** The context of a check, with the defaults filled in. */
function contextOf(context: Partial<CheckContext>): CheckContext {
  return { serverName: context.serverName ?? DEFAULT_SERVER_NAME };
}

/** True when `schema`'s root forbids a property `name` it does not declare (`additionalProperties: false`). */
export function forbidsArgument(schema: unknown, name: string): boolean {
  if (!isObject(schema)) return false;
  const declared = isObject(schema.properties) && Object.hasOwn(schema.properties, name);
  return !declared && schema.additionalProperties === false;
}

/** The findings of the arguments `host` adds to every call: an injection, or an alteration where the tool declares that name. */
function injectionFindings(tool: ServedTool, host: HostProfile): HostFinding[] {
  const root = tool.inputSchema;
  if (!isObject(root) || root.type !== 'object') return [];
  return (host.injects ?? []).map((argument) => {
    const declared = isObject(root.properties) && Object.hasOwn(root.properties, argument.name);
    const name = codeSpan(argument.name);
    const refusal = forbidsArgument(root, argument.name)
      ? '; the tool forbids other properties, so a server that validates calls as they come refuses them'
      : '';
    return {
      host: host.id,
      rule: `${host.id}/${argument.name}`,
      effect: declared ? 'alters' : 'injects',
      scope: 'tool',
      pointer: `${INPUT_SCHEMA}/properties/${escapePointerSegment(argument.name)}`,
      message: declared
        ? `${host.name} replaces the tool's own ${name} with its ${codeSpan(JSON.stringify(argument.schema))} and uses it for itself`
        : `${host.name} adds ${name} to the declaration and sends it in calls${refusal}`,
    } satisfies HostFinding;
  });
}

/** A name the host changes beyond its own prefix (cut, characters replaced): what its model sees instead. */
function namingFindings(tool: ServedTool, host: HostProfile, context: CheckContext): HostFinding[] {
  const naming = host.naming;
  if (naming === undefined) return [];
  const shown = naming.qualify(tool.name, context);
  if (shown === `${naming.prefix(context)}${tool.name}`) return [];
  return [
    {
      host: host.id,
      rule: `${host.id}/name-rewritten`,
      effect: 'alters',
      scope: 'tool',
      pointer: '/name',
      message: `${host.name} shows the model ${codeSpan(shown)}`,
      fix: naming.fix,
    },
  ];
}

/** The verdict of a list of findings: the worst effect among them. */
export function verdictOf(findings: readonly HostFinding[]): HostVerdict {
  if (findings.some((finding) => finding.effect === 'rejects' && finding.scope !== 'tool')) return 'server-down';
  if (findings.some((finding) => finding.effect === 'rejects')) return 'rejected';
  if (findings.some((finding) => finding.effect === 'alters')) return 'altered';
  return 'unaltered';
}

/** What `host` does to one served tool: every rule's findings at their pointers, and the verdict. */
export function checkTool(tool: ServedTool, host: HostProfile, context: Partial<CheckContext> = {}): ToolCheck {
  const full = contextOf(context);
  const findings: HostFinding[] = host.rules.flatMap((rule) =>
    rule.find(tool, full).map((hit) => ({
      host: host.id,
      rule: rule.id,
      effect: rule.effect,
      scope: rule.scope ?? 'tool',
      pointer: hit.pointer,
      message: hit.detail,
      ...(rule.fix === undefined ? {} : { fix: rule.fix }),
    })),
  );
  findings.push(...namingFindings(tool, host, full), ...injectionFindings(tool, host));
  return { tool: tool.name, host: host.id, verdict: verdictOf(findings), findings };
}

/**
 * The names `host` folds together: for each tool (by its index in `names`) whose host-side name another
 * tool shares, one finding naming the others and the name they share — `rejects` for each tool the
 * host drops (its registry keeps the first or the last of them), `warns` for the one it keeps.
 */
export function nameCollisions(
  names: readonly string[],
  host: HostProfile,
  context: Partial<CheckContext> = {},
): Map<number, HostFinding> {
  const out = new Map<number, HostFinding>();
  const naming = host.naming;
  if (naming === undefined) return out;
  const full = contextOf(context);
  const byName = new Map<string, number[]>();
  names.forEach((name, index) => {
    const shown = naming.qualify(name, full);
    byName.set(shown, [...(byName.get(shown) ?? []), index]);
  });
  for (const [shown, indexes] of byName) {
    if (indexes.length < 2) continue;
    const kept = naming.keeps === 'first' ? indexes[0]! : indexes[indexes.length - 1]!;
    for (const index of indexes) {
      const others = indexes
        .filter((other) => other !== index)
        .map((other) => codeSpan(names[other]!))
        .join(', ');
      const shared = `${host.name} shows this tool and ${others} under one name, ${codeSpan(shown)}`;
      out.set(index, {
        host: host.id,
        rule: `${host.id}/name-collision`,
        effect: index === kept ? 'warns' : 'rejects',
        scope: 'tool',
        pointer: '/name',
        message:
          index === kept
            ? `${shared}: it keeps this one and drops ${others}`
            : `${shared}: it keeps only ${codeSpan(names[kept]!)} and drops this one`,
        fix: 'give the tools shorter or distinct names, or the server a shorter name (`manifests.serverName`)',
      });
    }
  }
  return out;
}

/**
 * What `host` does to a server's whole tool list: each tool's check (with `nameCollisions`: a name
 * two tools share after the host's renaming rejects the ones the host drops), and the findings that
 * take the whole server or session down — when there are any, every tool's verdict is `server-down`.
 */
export function checkServer(
  tools: readonly ServedTool[],
  host: HostProfile,
  context: Partial<CheckContext> = {},
): ServerCheck {
  const full = contextOf(context);
  const collisions = nameCollisions(
    tools.map((tool) => tool.name),
    host,
    full,
  );
  const checks = tools.map((tool, index) => {
    const check = checkTool(tool, host, full);
    const collision = collisions.get(index);
    if (collision === undefined) return check;
    const findings = [...check.findings, collision];
    return { ...check, findings, verdict: verdictOf(findings) };
  });
  const down = checks.flatMap((check) =>
    check.findings.filter((finding) => finding.effect === 'rejects' && finding.scope !== 'tool'),
  );
  const final = down.length === 0 ? checks : checks.map((check) => ({ ...check, verdict: 'server-down' as const }));
  // The worst verdict of any tool is the verdict of all their findings together.
  const verdict = verdictOf(final.flatMap((check) => check.findings));
  return { host: host.id, verdict, tools: final, down };
}
