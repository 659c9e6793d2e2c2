-- Loaded by scripts/bench.ts into wrk (which passes a browser's request headers with -H): prints
-- the result as one JSON line (latencies in microseconds) for the bench to read.
-- With the argument "visitors" (wrk ... url -- visitors), each request comes from another client
-- address, as a trusted proxy would say in X-Forwarded-For: many visitors, not one client.
-- With "pause=N", each connection waits N ms after each answer: a steady load that leaves the
-- server's core time to spare, instead of all it can take.

local visitor = 0

init = function(args)
  for _, arg in ipairs(args) do
    if arg == "visitors" then
      request = function()
        visitor = visitor + 1
        wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(visitor / 65536) % 256, math.floor(visitor / 256) % 256, visitor % 256)
        return wrk.format()
      end
    end
    local pause = string.match(arg, "^pause=(%d+)$")
    if pause then
      delay = function()
        return tonumber(pause)
      end
    end
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
