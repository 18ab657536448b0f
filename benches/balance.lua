-- wrk script: GET /api/user/balance with a player's bearer token (session lookup + one
-- balance query + JSON in major units). Env: BENCH_TOKEN.
local token = os.getenv("BENCH_TOKEN")
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. token

local failures = 0
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"status":0', 1, true) then
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  io.write(string.format("envelope-failures: %d\n", failures))
end
