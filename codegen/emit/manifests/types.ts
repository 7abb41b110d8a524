/**
 * The types the manifest files share: the options every target's builder reads, what one tool's
 * emission gives of the manifests, what an emission of them answers, and what the loss and token
 * reports hold.
 */
import type { HostFinding } from '../../../src/hosts/host-profile.js';
import type { LossEntry } from '../../../src/manifest-targets/build.js';
import type { DeferLoading } from '../../../src/manifest-targets/defer-loading.js';
import type { ManifestTarget } from '../../../src/manifest-targets/table.js';
import type { ToolsmithConfig } from '../../config/generated/config-type.js';
import type { FileSegments, GeneratedFile, Problem } from '../../model.js';

/** The config's `manifests` keys (`codegen/config/config-schema.ts` declares and describes each). */
type ConfigManifests = NonNullable<ToolsmithConfig['manifests']>;

/**
 * Options of the manifests (`createManifestAssembler`): the config's `manifests` keys by their config
 * names (a key declared there reaches the builders with no edit here), absent ones at their declared defaults.
 */
export interface ManifestOptions extends Omit<ConfigManifests, 'targets' | 'tokenBudget' | 'deferLoading'> {
  /** The targets to emit (default: `DEFAULT_MANIFEST_TARGETS`). */
  targets?: readonly ManifestTarget[];
  /** Token budgets per target: the whole manifest (`total`) and any one tool's entry (`perTool`). */
  tokenBudget?: TokenBudgets;
  /** Deferred loading: the tools it does not keep loaded are marked `defer_loading: true` (Anthropic, OpenAI Responses). */
  deferLoading?: DeferLoading;
  /** The token report's path relative to the project root, where budget warnings are placed (default `manifests/token-report.json`). */
  tokenReportFile?: string;
  /**
   * Not a config key: the names the hosts fold together, by tool name — made from every tool's name by
   * `withNameCollisions` where the project is known, so each tool's host report can tell them.
   */
  nameCollisions?: ReadonlyMap<string, readonly HostFinding[]>;
}

/** What the manifest assembler's `finish` returns: the files, the problems that make generate fail, and the losses (for docs). */
export interface ManifestEmission {
  /** The files made in memory. */
  files: GeneratedFile[];
  /** The files assembled straight into the run's output (`createManifestAssembler`'s `output`), by path. */
  written: string[];
  /** Errors: a tool a target cannot take under the `error` policy. */
  problems: Problem[];
  /** Warnings (`severity: 'warning'`): a tool left out of a target under the `omit` policy; they do not stop generate. */
  warnings: Problem[];
  /** tool → target → losses, sorted; every tool and enabled target present. */
  losses: LossReport;
  /** tool → target → why that target does not list the tool (it cannot take it, or the definition turned it off). */
  unavailable: Record<string, Partial<Record<ManifestTarget, string>>>;
  /** Where each tool's part lies in each file, by path (for `spliceParts` in a later run). */
  segments?: Record<string, FileSegments>;
  /** What every tool's entries cost per target (`manifests/token-report.json`); absent when no target is enabled. */
  tokens?: TokenReport;
  /** Made by splicing the changed tools' parts into the last run's files (`spliceParts`). */
  spliced?: true;
}

/** tool name → target → losses (every tool and enabled target present, possibly with no entries). */
export type LossReport = Record<string, LossesByTarget>;

/** One tool's losses, by target. */
export type LossesByTarget = Partial<Record<ManifestTarget, LossEntry[]>>;

/** A target's token budget (`manifests.tokenBudget.<target>`): the whole manifest, and any one tool's entry. */
interface TokenBudget {
  total?: number;
  perTool?: number;
}

/** Budgets by target. */
export type TokenBudgets = Partial<Record<ManifestTarget, TokenBudget>>;

/** What `token-report.json` holds. */
export interface TokenReport {
  tokenizer: Record<string, Record<string, unknown>>;
  /** tool → target → tokens, `hash`, and `estimated: true` when an o200k count of it is not exact. */
  tools: Record<string, Record<string, number | string | boolean>>;
  totals: Record<string, number>;
}

/**
 * One tool's part of every manifest file, as text: what each enabled target lists for it, its parts of
 * the loss reports, and what the targets said of it. Plain data (it crosses the emit-worker boundary).
 */
export interface ToolManifests {
  name: string;
  /** Per enabled target, in file order: the tool's entry as text at its place in the file; null when the target does not list it. */
  entries: (string | null)[];
  /** Its parts of loss-report.json and loss-report.md (absent when no target is enabled). */
  lossText?: ToolLossText;
  /** Errors (a target cannot take it, under the `error` policy). */
  problems: Problem[];
  /** Warnings (a target leaves it out, under `omit`). */
  warnings: Problem[];
  /** target → why that target does not list it. */
  unavailable: Partial<Record<ManifestTarget, string>>;
  /**
   * Per enabled target, in file order, its entry's JSON without indentation ('' where the target does
   * not list it), joined by newlines (JSON text has none): what the token report counts (absent when it
   * is turned off), on the main thread once the emission is done, so no emit worker loads the tokenizer.
   */
  compact?: string;
}

/** One tool's part of both loss reports, as text. */
export interface ToolLossText {
  /** `"<tool>": { … }` as it stands in loss-report.json (indented one level). */
  json: string;
  /** The tool's section of loss-report.md (`## <tool>` and its lines, no blank line after). */
  markdown: string;
}
