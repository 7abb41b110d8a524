/**
 * The Lua scripts of `RedisTaskStore`. Each transition is one script, so it is atomic on the Redis
 * server: two replicas cannot both complete a task, nor complete one another replica cancelled or
 * whose lease ran out. Time comes from Redis's `TIME`, so replicas with skewed clocks agree on
 * leases and retention. Every script touches one key (Redis Cluster safe) and answers one JSON
 * string `{ verdict, task }`, `task` being the hash's fields.
 *
 * A task is one hash: status, statusMessage, createdAt, lastUpdatedAt, expiresAt, retentionMs,
 * pollIntervalMs, toolName, owner (`=<subject>`, or `-` without one), replicaId, leaseUntil, result
 * (JSON), error (JSON),
 * `in:<key>` / `out:<key>` (an open input request, an answer; JSON). Its key
 * expires at `expiresAt`: while it runs, `leaseUntil + retentionMs`; once it ended, its end plus
 * `retentionMs`.
 *
 * An owner's tasks are also listed in a sorted set (`tasks-of:<owner>`), scored by the creating
 * replica's clock (its milliseconds × 1000 plus a counter, so its tasks list in the order it made
 * them): written beside the task by `create`, in the same round trip, and read by `list`, which drops
 * the ids whose task is gone. Its tasks waiting for input are in `waiting-of:<owner>` (`WAIT_SCRIPT`).
 */

const PRELUDE = `
-- The Redis server's time in ms, read once per script, so that replicas with skewed clocks agree.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function terminal(s)
  return s == 'completed' or s == 'failed' or s == 'cancelled'
end
local function answer(verdict, key)
  if key == nil then return cjson.encode({ verdict = verdict }) end
  local flat = redis.call('HGETALL', key)
  local task = {}
  for i = 1, #flat, 2 do task[flat[i]] = flat[i + 1] end
  return cjson.encode({ verdict = verdict, task = task })
end
local function finish(key, status, message)
  local retention = tonumber(redis.call('HGET', key, 'retentionMs'))
  redis.call('HSET', key, 'status', status, 'lastUpdatedAt', now, 'expiresAt', now + retention)
  if message ~= nil and message ~= '' then
    redis.call('HSET', key, 'statusMessage', message)
  end
  redis.call('PEXPIREAT', key, now + retention)
end
-- A running task whose lease is over is failed, by whichever operation sees it first.
local function expire_lease(key)
  local status = redis.call('HGET', key, 'status')
  if status == false or terminal(status) then return end
  local lease = tonumber(redis.call('HGET', key, 'leaseUntil'))
  if lease >= now then return end
  local replica = redis.call('HGET', key, 'replicaId')
  local message = "Replica '" .. replica .. "' stopped renewing the task's lease " .. (now - lease) ..
    " ms ago (it died, froze, lost Redis, or could not write the task's result to it) before the task's result" ..
    " was written; the task was not completed. Call the tool again."
  finish(key, 'failed', message)
  redis.call('HSET', key, 'error', cjson.encode({ code = -32603, message = message }))
end
`;

/** KEYS[1] task; ARGV replicaId, leaseMs, retentionMs, pollIntervalMs, toolName, owner. */
export const CREATE_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('task id already taken') end
local lease = now + tonumber(ARGV[2])
local expires = lease + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'status', 'working', 'createdAt', now, 'lastUpdatedAt', now,
  'expiresAt', expires, 'retentionMs', ARGV[3], 'pollIntervalMs', ARGV[4], 'toolName', ARGV[5],
  'replicaId', ARGV[1], 'leaseUntil', lease, 'owner', ARGV[6])
redis.call('PEXPIREAT', KEYS[1], expires)
return answer('ok', KEYS[1])
`;

/** KEYS[1] task. */
export const GET_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
expire_lease(KEYS[1])
return answer('ok', KEYS[1])
`;

/**
 * KEYS[1] task; ARGV status, payload field ('result', 'error' or ''), payload JSON, statusMessage,
 * owner check ('' none, else the owner), channel prefix, the calling replica. Tells the running
 * replica (pub/sub on `<prefix><replicaId>`: `taskId\n<cancelled|ended-elsewhere>\nmessage`) of a
 * cancel, or of an ending another replica wrote. The running replica's own ending is taken even
 * after its lease ran out, unless someone saw that first (and failed the task): it is alive and
 * holds the result, which it writes again until Redis takes it.
 */
export const FINISH_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'owner') ~= ARGV[5] then return answer('not-found') end
local owner = redis.call('HGET', KEYS[1], 'replicaId')
if owner ~= ARGV[7] then expire_lease(KEYS[1]) end
if terminal(redis.call('HGET', KEYS[1], 'status')) then return answer('terminal', KEYS[1]) end
finish(KEYS[1], ARGV[1], ARGV[4])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
if ARGV[1] == 'cancelled' or owner ~= ARGV[7] then
  local kind = ARGV[1] == 'cancelled' and 'cancelled' or 'ended-elsewhere'
  local taskId = string.match(KEYS[1], '[^:]+$')
  redis.call('PUBLISH', ARGV[6] .. owner, taskId .. '\\n' .. kind .. '\\n' .. ARGV[4])
end
return answer('ok', KEYS[1])
`;

/** KEYS[1] task; ARGV replicaId, leaseMs. Answers the verdict 'ok' (renewed) or the task as it is. */
export const RENEW_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
expire_lease(KEYS[1])
local status = redis.call('HGET', KEYS[1], 'status')
if terminal(status) or redis.call('HGET', KEYS[1], 'replicaId') ~= ARGV[1] then return answer('terminal', KEYS[1]) end
local lease = now + tonumber(ARGV[2])
local expires = math.max(tonumber(redis.call('HGET', KEYS[1], 'expiresAt')), lease + tonumber(redis.call('HGET', KEYS[1], 'retentionMs')))
redis.call('HSET', KEYS[1], 'leaseUntil', lease, 'expiresAt', expires)
redis.call('PEXPIREAT', KEYS[1], expires)
return answer('ok')
`;

/**
 * KEYS[1] a subject's sorted set of task ids; ARGV from score ('-inf' for the start), the cursor's
 * task id ('' none), limit. Answers up to limit + 1 `id, score` pairs after the cursor (score, then
 * id, as Redis orders equal scores), so the caller knows whether a next page exists.
 */
export const LIST_SCRIPT = `
local from, after, wanted = ARGV[1], ARGV[2], (tonumber(ARGV[3]) + 1) * 2
local out = {}
local offset = 0
repeat
  local chunk = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', offset, 100)
  for i = 1, #chunk, 2 do
    local listed = after ~= '' and chunk[i + 1] == from and chunk[i] <= after
    if not listed and #out < wanted then
      out[#out + 1] = chunk[i]
      out[#out + 1] = chunk[i + 1]
    end
  end
  offset = offset + 100
until #chunk == 0 or #out == wanted
return out
`;

/**
 * KEYS[1] task; ARGV status ('working' or 'input_required'), statusMessage ('' for none), the
 * running replica, then key, request JSON pairs (input requests it adds). A running task's own
 * change of a non-terminal status; its lease and expiry stay. Each open request is a field
 * `in:<key>` and each answer `out:<key>`, raw JSON strings (cjson would turn an empty array into an
 * object), so no script decodes them. `working` drops the open requests.
 */
export const MARK_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
expire_lease(KEYS[1])
if terminal(redis.call('HGET', KEYS[1], 'status')) or redis.call('HGET', KEYS[1], 'replicaId') ~= ARGV[3] then
  return answer('terminal', KEYS[1])
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'lastUpdatedAt', now)
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'statusMessage')
else redis.call('HSET', KEYS[1], 'statusMessage', ARGV[2]) end
if ARGV[1] == 'working' then
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(field, 1, 3) == 'in:' then redis.call('HDEL', KEYS[1], field) end
  end
end
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], 'in:' .. ARGV[i], ARGV[i + 1]) end
return answer('ok', KEYS[1])
`;

/**
 * KEYS[1] task; ARGV owner check, channel prefix, then key, answer JSON pairs. The client's answers
 * to open requests: each key must be open (`in:<key>`), else 'not-waiting' and nothing is written;
 * each answer closes its request; none left open makes the task `working`. The running replica is
 * told (`taskId\nanswered`), so its waiting call reads the answer at once.
 */
export const RESPOND_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return answer('not-found') end
expire_lease(KEYS[1])
if terminal(redis.call('HGET', KEYS[1], 'status')) then return answer('terminal', KEYS[1]) end
if #ARGV < 4 then return answer('not-waiting', KEYS[1]) end
for i = 3, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], 'in:' .. ARGV[i]) == 0 then return answer('not-waiting', KEYS[1]) end
end
for i = 3, #ARGV, 2 do
  redis.call('HDEL', KEYS[1], 'in:' .. ARGV[i])
  redis.call('HSET', KEYS[1], 'out:' .. ARGV[i], ARGV[i + 1])
end
local open = false
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 3) == 'in:' then open = true end
end
if not open then
  redis.call('HSET', KEYS[1], 'status', 'working')
  redis.call('HDEL', KEYS[1], 'statusMessage')
end
redis.call('HSET', KEYS[1], 'lastUpdatedAt', now)
local taskId = string.match(KEYS[1], '[^:]+$')
redis.call('PUBLISH', ARGV[2] .. redis.call('HGET', KEYS[1], 'replicaId'), taskId .. '\\nanswered')
return answer('ok', KEYS[1])
`;

/**
 * KEYS[1] an owner's tasks waiting for input (`waiting-of:<owner>`, scored by when each wait ends);
 * ARGV task id, the cap, the wait in ms. Drops the waits that ended, then adds the task unless the
 * owner has the cap waiting already: answers -1 (added, or there already), else how many wait.
 */
export const WAIT_SCRIPT = `${PRELUDE}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then
  local waiting = redis.call('ZCARD', KEYS[1])
  if waiting >= tonumber(ARGV[2]) then return waiting end
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return -1
`;
