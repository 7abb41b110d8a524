/*
 * The MCP hosts: the host table (what each host does to tool names, schemas and calls, with its
 * source), the checks of a tool or a server's list against a host, and the portable profile (an
 * input schema every host of the table takes as it is). Pure data and pure functions.
 */
export type { HostFinding, HostProfile, ServedTool } from './host-profile.js';
export { HOSTS, hostById, hostToolName, injectedArguments } from './host-table.js';
export { checkServer, checkTool, forbidsArgument } from './check-tool.js';
export { portableInputSchema } from './portable-schema.js';
