/*
 * The MCP hosts: the host table (what each host does to tool names, schemas and calls, with its
 * source), the checks of a tool or a server's list against a host, and the portable profile (an
 * input schema every host of the table takes as it is). Pure data and pure functions.
 */
export {
  DEFAULT_SERVER_NAME,
  type CheckContext,
  type HostEffect,
  type HostFinding,
  type HostNaming,
  type HostProfile,
  type HostRule,
  type HostVerdict,
  type RejectionScope,
  type RuleHit,
  type ServedTool,
  type ServerCheck,
  type ToolCheck,
} from './host-profile.js';
export type { InjectedArgument } from '../mcp/injected-arguments.js';
export { HOSTS, hostById, hostToolName, injectedArguments } from './host-table.js';
export { checkServer, checkTool, forbidsArgument, verdictOf } from './check-tool.js';
export { portableInputSchema, type PortableMove, type PortableSchema, type Unportable } from './portable-schema.js';
