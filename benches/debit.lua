-- wrk script: ledger debits through POST /api/admin/wallet/adjust (session auth, user
-- lookup, one ledger posting with its audit row, all in the real server).
-- Env: BENCH_TOKEN (admin bearer token), BENCH_USERS (comma-separated player ids),
-- BENCH_RUN (unique run id so idempotency keys never repeat).
local token = os.getenv("BENCH_TOKEN")
local run = os.getenv("BENCH_RUN") or "run"
local users = {}
for id in string.gmatch(os.getenv("BENCH_USERS") or "", "[^,]+") do users[#users + 1] = id end

local thread_id = 0
local counter = 0
local threads = {}

function setup(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  math.randomseed(tonumber(tid) * 7919 + os.time())
end

function request()
  counter = counter + 1
  local user = users[math.random(#users)]
  local body = string.format(
    '{"userId":%s,"kind":"real","amount":"-0.001","reason":"benchmark debit","idempotencyKey":"bench-%s-%s-%d"}',
    user, run, tid, counter)
  return wrk.format("POST", "/api/admin/wallet/adjust",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end

local failures = 0
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"status":0', 1, true) then
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  io.write(string.format("envelope-failures: %d\n", failures))
end
