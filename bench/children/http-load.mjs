// P8 load generator, in its own process: autocannon POSTs one tools/call for `duration` seconds over
// `connections` keep-alive connections and checks every answer against the verified one.
import autocannon from 'autocannon';

const { url, body, expectBody, connections, duration, headers } = JSON.parse(process.argv[2]);
const result = await autocannon({
  url,
  method: 'POST',
  headers: headers ?? {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  },
  body,
  expectBody,
  connections,
  duration,
  pipelining: 1,
});
process.stdout.write(
  `${JSON.stringify({
    total: result.requests.total,
    seconds: result.duration,
    callsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  })}\n`,
);
