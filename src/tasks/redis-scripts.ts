/**
 * The Lua scripts of `RedisTaskStore`. Each transition is one script, so it is atomic on the Redis
 * server: two replicas cannot both complete a task, nor complete one another replica cancelled or
 * whose lease ran out. Time comes from Redis's `TIME`, so replicas with skewed clocks agree on
 * leases and retention. Every script touches one key (Redis Cluster safe) and answers one JSON
 * string `{ verdict, task }`, `task` being the hash's fields.
 *
 * A task is one hash: status, statusMessage, createdAt, lastUpdatedAt, expiresAt, retentionMs,
 * pollIntervalMs, toolName, subject, replicaId, leaseUntil, result (JSON), error (JSON),
 * `in:<key>` / `out:<key>` (an open input request, an answer; JSON). Its key
 * expires at `expiresAt`: while it runs, `leaseUntil + retentionMs`; once it ended, its end plus
 * `retentionMs`.
 *
 * A subject's tasks are also listed in a sorted set (`tasks-of:=<subject>`, `tasks-of:-` for tasks
 * without one), scored by the creating replica's clock (its milliseconds × 1000 plus a counter, so
 * its tasks list in the order it made them): written beside the task by `create`, in the same round
 * trip, and read by `list`, which drops the ids whose task is gone.
 */

const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function terminal(s)
  return s == 'completed' or s == 'failed' or s == 'cancelled'
end
local function read(key)
  local flat = redis.call('HGETALL', key)
  local task = {}
  for i = 1, #flat, 2 do task[flat[i]] = flat[i + 1] end
  return task
end
local function answer(verdict, key)
  if key == nil then return cjson.encode({ verdict = verdict }) end
  return cjson.encode({ verdict = verdict, task = read(key) })
end
local function finish(key, now, status, message)
  local retention = tonumber(redis.call('HGET', key, 'retentionMs'))
  redis.call('HSET', key, 'status', status, 'lastUpdatedAt', now, 'expiresAt', now + retention)
  if message ~= nil and message ~= '' then
    redis.call('HSET', key, 'statusMessage', message)
  end
  redis.call('PEXPIREAT', key, now + retention)
end
-- A running task whose lease is over is failed, by whichever operation sees it first.
local function expire_lease(key, now)
  local status = redis.call('HGET', key, 'status')
  if status == false or terminal(status) then return end
  local lease = tonumber(redis.call('HGET', key, 'leaseUntil'))
  if lease >= now then return end
  local replica = redis.call('HGET', key, 'replicaId')
  local message = "Replica '" .. replica .. "' stopped renewing the task's lease " .. (now - lease) ..
    " ms ago (it died, froze or lost Redis) before the task finished; the task was not completed. Call the tool again."
  finish(key, now, 'failed', message)
  redis.call('HSET', key, 'error', cjson.encode({ code = -32603, message = message }))
end
`;

/** KEYS[1] task; ARGV replicaId, leaseMs, retentionMs, pollIntervalMs, toolName, subject ('' for none). */
export const CREATE_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('task id already taken') end
local now = now_ms()
local lease = now + tonumber(ARGV[2])
local expires = lease + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'status', 'working', 'createdAt', now, 'lastUpdatedAt', now,
  'expiresAt', expires, 'retentionMs', ARGV[3], 'pollIntervalMs', ARGV[4], 'toolName', ARGV[5],
  'replicaId', ARGV[1], 'leaseUntil', lease)
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'subject', ARGV[6]) end
redis.call('PEXPIREAT', KEYS[1], expires)
return answer('ok', KEYS[1])
`;

/** KEYS[1] task. */
export const GET_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
expire_lease(KEYS[1], now_ms())
return answer('ok', KEYS[1])
`;

/**
 * KEYS[1] task; ARGV status, payload field ('result', 'error' or ''), payload JSON, statusMessage,
 * subject check ('' none, else '=' .. subject), channel prefix, the calling replica. Tells the
 * running replica (pub/sub on `<prefix><replicaId>`: `taskId\n<cancelled|ended-elsewhere>\nmessage`)
 * of a cancel, or of an ending another replica wrote.
 */
export const FINISH_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
if ARGV[5] ~= '' then
  local subject = redis.call('HGET', KEYS[1], 'subject')
  if subject ~= false and '=' .. subject ~= ARGV[5] then return answer('not-found') end
end
local now = now_ms()
expire_lease(KEYS[1], now)
if terminal(redis.call('HGET', KEYS[1], 'status')) then return answer('terminal', KEYS[1]) end
finish(KEYS[1], now, ARGV[1], ARGV[4])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
local owner = redis.call('HGET', KEYS[1], 'replicaId')
if ARGV[1] == 'cancelled' or owner ~= ARGV[7] then
  local kind = 'ended-elsewhere'
  if ARGV[1] == 'cancelled' then kind = 'cancelled' end
  local taskId = string.match(KEYS[1], '[^:]+$')
  redis.call('PUBLISH', ARGV[6] .. owner, taskId .. '\\n' .. kind .. '\\n' .. ARGV[4])
end
return answer('ok', KEYS[1])
`;

/** KEYS[1] task; ARGV replicaId, leaseMs. Answers the verdict 'ok' (renewed) or the task as it is. */
export const RENEW_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
local now = now_ms()
expire_lease(KEYS[1], now)
local status = redis.call('HGET', KEYS[1], 'status')
if terminal(status) or redis.call('HGET', KEYS[1], 'replicaId') ~= ARGV[1] then return answer('terminal', KEYS[1]) end
local lease = now + tonumber(ARGV[2])
local expires = math.max(tonumber(redis.call('HGET', KEYS[1], 'expiresAt')), lease + tonumber(redis.call('HGET', KEYS[1], 'retentionMs')))
redis.call('HSET', KEYS[1], 'leaseUntil', lease, 'expiresAt', expires)
redis.call('PEXPIREAT', KEYS[1], expires)
return cjson.encode({ verdict = 'ok' })
`;

/**
 * KEYS[1] a subject's sorted set of task ids; ARGV from score ('-inf' for the start), the cursor's
 * task id ('' none), limit. Answers up to limit + 1 `id, score` pairs after the cursor (score, then
 * id, as Redis orders equal scores), so the caller knows whether a next page exists.
 */
export const LIST_SCRIPT = `
local limit = tonumber(ARGV[3])
local from = ARGV[1]
local after = ARGV[2]
local out = {}
local offset = 0
while #out < (limit + 1) * 2 do
  local chunk = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', offset, 100)
  if #chunk == 0 then break end
  for i = 1, #chunk, 2 do
    local skip = after ~= '' and chunk[i + 1] == from and chunk[i] <= after
    if not skip and #out < (limit + 1) * 2 then
      out[#out + 1] = chunk[i]
      out[#out + 1] = chunk[i + 1]
    end
  end
  offset = offset + 100
end
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
local now = now_ms()
expire_lease(KEYS[1], now)
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
 * KEYS[1] task; ARGV subject check ('=' .. subject, or '=' for none), then key, answer JSON pairs.
 * The client's answers to open requests: each key must be open (`in:<key>`), else 'not-waiting'
 * and nothing is written; each answer closes its request; none left open makes the task `working`.
 */
export const RESPOND_SCRIPT = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return answer('not-found') end
local subject = redis.call('HGET', KEYS[1], 'subject')
if subject ~= false and '=' .. subject ~= ARGV[1] then return answer('not-found') end
local now = now_ms()
expire_lease(KEYS[1], now)
if terminal(redis.call('HGET', KEYS[1], 'status')) then return answer('terminal', KEYS[1]) end
if #ARGV < 3 then return answer('not-waiting', KEYS[1]) end
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], 'in:' .. ARGV[i]) == 0 then return answer('not-waiting', KEYS[1]) end
end
for i = 2, #ARGV, 2 do
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
return answer('ok', KEYS[1])
`;
