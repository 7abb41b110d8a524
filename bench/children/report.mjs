/**
 * Shared by the child processes: peak resident memory of this process, in MB, from the kernel's
 * high-water mark (VmHWM) and from `process.resourceUsage().maxRSS` (both include the whole heap).
 */
import { readFileSync } from 'node:fs';

/** Peak RSS in MB: VmHWM from /proc/self/status when readable, else maxRSS. */
export function peakRssMb() {
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  try {
    const match = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return { peakMb: Number(match[1]) / 1024, maxRssMb };
  } catch {
    // Not Linux: maxRSS is the same measure.
  }
  return { peakMb: maxRssMb, maxRssMb };
}

/** Writes the child's one JSON line; the parent reads the last line of stdout. */
export function report(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
