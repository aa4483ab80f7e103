-- wrk script of bench/run.py's load run: every wrk thread is one phone at one table, with one
-- keep-alive connection (so run wrk with -t and -c both = 2 × tables).
--
-- A table's entries are due every INTERVAL s from its phase on; entry k is posted by the phone of
-- the player who makes it (the htmx form post of the game screen) on the version that phone last
-- saw. A phone whose screen does not show the previous entry yet polls (every 0.25 s) until it
-- does, as a player waits for the other's move; a 409 (an entry landed meanwhile) is counted as
-- an error and the entry sent again on the version the answer shows, as a player taps again. Each phone also
-- polls every INTERVAL s (seat 0 half a second after the table's entries, seat 1 1.5 s after),
-- with the version it last saw, as the game screen's poller does.
--
-- Environment: BENCH_DATA (a folder of Lua files, <n>.lua returning table n, written by
-- bench/run.py; wrk's thread:set() copies only flat tables), BENCH_OUT
-- (where done() writes the results as JSON), BENCH_START (CLOCK_MONOTONIC seconds of the start),
-- BENCH_WARMUP and BENCH_MEASURE (seconds), BENCH_COOKIE and BENCH_CSRF (one session's cookie
-- and CSRF token), BENCH_DEBUG (any value: print each refused request). Latencies are measured here, from the request to its whole response, and
-- only for requests sent after the warm-up.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clk_id, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC, as Python's time.monotonic()
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end

local INTERVAL = 2.0
local threads = {}
local counter = 0

-- ------------------------------------------------------------------ setup (main state)

function setup(thread)
  local index = counter
  counter = counter + 1
  thread:set("table_index", math.floor(index / 2) + 1)
  thread:set("seat", index % 2)
  table.insert(threads, thread)
end

-- ------------------------------------------------------------------ running (one state per thread)

local actions, at, current, sent
local start, warm_until, stop
-- Results, as flat globals (what thread:get() can copy): latencies (ms) and server times by kind.
lat_post, lat_poll204, lat_changed = {}, {}, {}
srv_post, srv_poll204, srv_changed = {}, {}, {}
errors = {}
skipped = 0
local LAT = { post = lat_post, ["poll 204"] = lat_poll204, ["poll changed"] = lat_changed }
local SRV = { post = srv_post, ["poll 204"] = srv_poll204, ["poll changed"] = srv_changed }
local known
local headers_common

function init(args)
  T = dofile(os.getenv("BENCH_DATA") .. "/" .. table_index .. ".lua")
  start = tonumber(os.getenv("BENCH_START"))
  warm_until = start + tonumber(os.getenv("BENCH_WARMUP"))
  stop = warm_until + tonumber(os.getenv("BENCH_MEASURE"))
  known = T.version
  headers_common = {
    ["Cookie"] = os.getenv("BENCH_COOKIE"),
    ["X-CSRFToken"] = os.getenv("BENCH_CSRF"),
    ["HX-Request"] = "true",
    ["Accept-Encoding"] = "gzip",
  }
  -- This phone's schedule: its own entries and its polls, in time order.
  actions = {}
  local poll_offset = (seat == 0) and 0.5 or 1.5
  local k = 0
  while true do
    local t = start + T.phase + k * INTERVAL
    if t >= stop then break end
    local entry = T.events[k + 1]
    if entry and entry.player == seat then
      table.insert(actions, { time = t, kind = "post", k = k })
    end
    table.insert(actions, { time = t + poll_offset, kind = "poll" })
    k = k + 1
  end
  table.sort(actions, function(a, b) return a.time < b.time end)
  -- A phone that opens its connection asks at once (the page load); gunicorn's gthread worker
  -- holds a thread for up to 5 s waiting for a new connection's first request.
  -- It keeps polling every INTERVAL s until its schedule begins (the keep-alive is 5 s).
  local first = actions[1] and actions[1].time or stop
  local opening = {}
  local t = now()
  while t < first - 0.25 do
    table.insert(opening, { time = t, kind = "poll" })
    t = t + INTERVAL
  end
  for i = #opening, 1, -1 do table.insert(actions, 1, opening[i]) end
  at = 1
end

function delay()
  local action = actions[at]
  if not action then return 60000 end -- nothing left: idle until wrk stops
  if action.waiting then
    if now() > action.time + INTERVAL then -- the entry before never came (refused): give up this one
      skipped = skipped + 1
      action.waiting = false
      at = at + 1
      return delay()
    end
    return 250 -- polling again shortly for the entry it waits for
  end
  local wait = (action.time - now()) * 1000
  return wait > 0 and math.floor(wait) or 0
end

function request()
  current = actions[at]
  sent = now()
  if not current then
    return wrk.format("GET", "/_bench/hello", headers_common)
  end
  current.waiting = current.kind == "post" and known < T.version + current.k
  if current.kind == "post" and not current.waiting then
    local h = {}
    for key, value in pairs(headers_common) do h[key] = value end
    h["Content-Type"] = "application/x-www-form-urlencoded"
    local body = T.events[current.k + 1].body
        .. "&expected_version=" .. known
        .. "&entry_id=bench-" .. string.sub(T.id, 1, 12) .. "-" .. (T.posted + current.k)
        .. "&csrf_token=" .. os.getenv("BENCH_CSRF")
    return wrk.format("POST", "/games/" .. T.id .. "/events", h, body)
  end
  return wrk.format("GET", "/games/" .. T.id .. "/poll?v=" .. known, headers_common)
end

function response(status, headers, body)
  local action = current
  if not action then return end
  if action.waiting then
    -- the entry is due but this screen does not show the entry before it yet: the player
    -- waits for the screen to catch up (this request was a poll) and enters it then
  elseif action.kind == "post" and status == 409 and not action.retried then
    action.retried = true -- the other phone's entry landed meanwhile: tap again on the fresh screen
  else
    at = at + 1
  end
  local kind = action.kind
  if kind == "poll" or action.waiting then kind = (status == 204) and "poll 204" or "poll changed" end
  if status >= 300 and status ~= 304 then
    local key = kind .. " " .. status
    if sent < warm_until then key = key .. " (warm-up)" end
    errors[key] = (errors[key] or 0) + 1
    if os.getenv("BENCH_DEBUG") then
      io.stderr:write(string.format("%s %s k=%s known=%s seat=%s at=%.3f table=%s %s\n", kind, status,
        tostring(action.k), tostring(known), tostring(seat), now() - start, tostring(table_index),
        string.sub(body or "", 1, 160)))
    end
  end
  local version = tonumber(headers["Tracker-Version"] or "")
  if version and version > known then known = version end
  if sent >= warm_until and sent < stop then
    table.insert(LAT[kind], (now() - sent) * 1000)
    local timing = headers["Server-Timing"]
    local ms = timing and tonumber(string.match(timing, "dur=([0-9.]+)"))
    if ms then table.insert(SRV[kind], ms) end
  end
end

-- ------------------------------------------------------------------ done (main state)

local function json(value)
  local kind = type(value)
  if kind == "table" then
    if #value > 0 or next(value) == nil then
      local parts = {}
      for _, v in ipairs(value) do parts[#parts + 1] = json(v) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local parts = {}
    for k, v in pairs(value) do parts[#parts + 1] = string.format("%q", tostring(k)) .. ":" .. json(v) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif kind == "number" then
    return string.format("%.3f", value)
  elseif kind == "string" then
    return string.format("%q", value)
  end
  return "null"
end

function done(summary, latency, requests)
  local out = { phones = {}, socket_errors = summary.errors }
  for i, thread in ipairs(threads) do
    out.phones[i] = {
      table = thread:get("table_index"),
      seat = thread:get("seat"),
      lat = { post = thread:get("lat_post"), ["poll 204"] = thread:get("lat_poll204"),
              ["poll changed"] = thread:get("lat_changed") },
      server = { post = thread:get("srv_post"), ["poll 204"] = thread:get("srv_poll204"),
                 ["poll changed"] = thread:get("srv_changed") },
      errors = thread:get("errors"),
      skipped = thread:get("skipped"),
    }
  end
  local file = assert(io.open(os.getenv("BENCH_OUT"), "w"))
  file:write(json(out))
  file:close()
end
