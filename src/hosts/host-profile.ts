/*
 * The shapes of the host table (`host-table.ts`): what an MCP host — Gemini CLI, Cursor, Claude Code,
 * VS Code Copilot, … — does to the tools a server lists, rule by rule, each with the host's source
 * beside it, and what a check of one tool against one host finds. Pure data; nothing here runs a host.
 */
import type { InjectedArgument } from '../mcp/injected-arguments.js';

/** The server name a host puts in front of tool names when the project does not set one (`mcp_toolsmith_calculator`). */
export const DEFAULT_SERVER_NAME = 'toolsmith';

/**
 * What a host does where a rule matches: `rejects` the tool (or, by its `scope`, every tool of the
 * server or every request of the session); `alters` what the model is shown; `ignores` a field it
 * never shows the model; `injects` an argument of its own into calls; `warns` (a lint, nothing
 * changes).
 */
type HostEffect = 'rejects' | 'alters' | 'ignores' | 'injects' | 'warns';

/** How far a rejection reaches: the one tool, every tool of its server, or every request of the session (all servers). */
type RejectionScope = 'tool' | 'server' | 'session';

/** A tool as a host receives it: one entry of a `tools/list` answer. */
export interface ServedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

/** What a check knows besides the tool: the name the host's configuration gives the server. */
export interface CheckContext {
  /** The server's name in the host's configuration (default `toolsmith`): some hosts put it in every tool name. */
  serverName: string;
}

/** One place a rule matches: a JSON pointer into the served tool entry and what the host does there, in one sentence. */
export interface RuleHit {
  pointer: string;
  detail: string;
}

/** One behaviour of one host, with the source it is read from and the versions it holds for. */
export interface HostRule {
  /** `<host id>/<what>`, stable: reports and tests name rules by it. */
  id: string;
  effect: HostEffect;
  /** For `rejects`: what the rejection takes down (default `tool`). */
  scope?: RejectionScope;
  /** What the host does, in one sentence (Markdown), for the table and the docs. */
  does: string;
  /** Where it is read: the host's code (a file at a version or commit) where it is public, else the issue thread. */
  source: string;
  /** The host versions the rule is known to hold for. */
  versions: string;
  /** What a tool author can do about it. */
  fix?: string;
  /** The places this rule matches in `tool` (none: the host takes the tool as it is, as far as this rule goes). */
  find(tool: ServedTool, context: CheckContext): RuleHit[];
}

/** How a host names a tool for its model, when it renames them. */
interface HostNaming {
  /** The name the model sees for `tool` of server `context.serverName`. */
  qualify(tool: string, context: CheckContext): string;
  /** The part every name gets, which is not counted as an alteration (`mcp_toolsmith_`). */
  prefix(context: CheckContext): string;
  /** Which of two tools it names alike the host keeps: the `first` listed, or the `last` (a registry that overwrites). */
  keeps: 'first' | 'last';
  /** What the host does to names, in one sentence (Markdown). */
  does: string;
  /** What a tool author can do about it. */
  fix: string;
  source: string;
  versions: string;
}

/** One row of the host table. */
export interface HostProfile {
  /** Stable id: the key of reports and of `hosts` in the config (`gemini-cli`, `vscode-copilot-gpt-4`). */
  id: string;
  /** The host as people call it. */
  name: string;
  /** The versions the row was read from. */
  versions: string;
  naming?: HostNaming;
  injects?: readonly Omit<InjectedArgument, 'host'>[];
  rules: readonly HostRule[];
}

/** One thing a host does to one tool: a rule's hit, with the rule's effect and scope. */
export interface HostFinding {
  host: string;
  rule: string;
  effect: HostEffect;
  scope: RejectionScope;
  pointer: string;
  message: string;
  fix?: string;
}

/**
 * What a host does to a tool, worst first: `server-down` (the tool makes the host refuse its server
 * or every request), `rejected` (the tool is left out or its calls fail), `altered` (the model is
 * shown something else), `unaltered` (warnings, ignored fields and injected arguments aside).
 */
export type HostVerdict = 'server-down' | 'rejected' | 'altered' | 'unaltered';

/** The check of one tool against one host. */
export interface ToolCheck {
  tool: string;
  host: string;
  verdict: HostVerdict;
  findings: HostFinding[];
}

/** The check of a server's whole tool list against one host. */
export interface ServerCheck {
  host: string;
  /** The worst verdict of any tool. */
  verdict: HostVerdict;
  /** Per tool, in the list's order; every verdict is `server-down` when `down` is not empty. */
  tools: ToolCheck[];
  /** The findings that take the whole server (or session) down. */
  down: HostFinding[];
}
