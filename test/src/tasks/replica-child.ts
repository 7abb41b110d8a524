/**
 * A replica in its own process for the lease test: connects a `RedisTaskStore`, creates one task
 * and prints its id, then runs forever (the test kills it with SIGKILL, as a crash would).
 * argv: Redis URL, lease in ms.
 */
import { RedisTaskStore } from '../../../src/tasks/index.js';

const [url = '', leaseMs = '600'] = process.argv.slice(2);
const store = await RedisTaskStore.connect({ url, leaseMs: Number(leaseMs), replicaId: `child-${process.pid}` });
const running = await store.create({ toolName: 'never_finishes' });
process.stdout.write(`${JSON.stringify({ taskId: running.task.taskId, replicaId: store.replicaId })}\n`);
setInterval(() => undefined, 60_000);
