// All of node:fs plus a `globSync` that throws: what the conformance suite's bundle imports on Node 20.
// Only its `tier-check` command calls `globSync`; the server scenarios never do.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

/** Node 20 has no `fs.globSync` (Node 22 added it): says so instead of returning a wrong answer. */
export function globSync() {
  throw new Error('fs.globSync is not available on Node 20 (the conformance tier-check command needs Node 22)');
}
