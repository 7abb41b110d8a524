import { describe, expect, it, vi } from 'vitest';
import { MemoryTaskStore, openTaskStore } from '../../../src/tasks/index.js';
import { findRedisServer, REDIS_INSTALL_HINT } from './redis-server.js';
import { describeTaskStoreContract } from './task-store-contract.js';

describeTaskStoreContract('MemoryTaskStore', async (timings) => new MemoryTaskStore(timings), { leases: false });

describe('MemoryTaskStore', () => {
  it('refuses nonsense timings with the option named', () => {
    expect(() => new MemoryTaskStore({ leaseMs: 0 })).toThrow(/'leaseMs' must be a positive integer/);
    expect(() => new MemoryTaskStore({ retentionMs: Number.NaN })).toThrow(/'retentionMs'/);
  });
});

describe('MemoryTaskStore drain', () => {
  it('leaves no deadline timer behind when its tasks end early', async () => {
    vi.useFakeTimers();
    try {
      const tasks = new MemoryTaskStore();
      const running = await tasks.create({ toolName: 't' });
      const drained = tasks.drain({ deadlineMs: 60_000, reason: 'SIGTERM' });
      await running.complete({ done: true });
      expect(await drained).toEqual({ finished: 1, failed: 0 });
      await tasks.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the redis-server test helper', () => {
  it('fails with the install command when redis-server is missing, never skips', () => {
    expect(() => findRedisServer({ PATH: '/nonexistent' })).toThrow(REDIS_INSTALL_HINT);
    expect(REDIS_INSTALL_HINT).toMatch(/apt-get install -y redis-server/);
  });
});

describe('openTaskStore', () => {
  it("opens the memory store for 'memory' and refuses anything but memory or a Redis URL", async () => {
    const store = await openTaskStore('memory');
    expect(store).toBeInstanceOf(MemoryTaskStore);
    await store.close();
    await expect(openTaskStore('postgres://db')).rejects.toThrow(
      "--task-store must be 'memory' or a Redis URL (redis://host:port or rediss://host:port), got 'postgres://db'.",
    );
  });
});
