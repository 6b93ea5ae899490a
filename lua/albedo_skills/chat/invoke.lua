-- The bounded request behind every chat integration (CodeCompanion, gp.nvim): which user turns start with a
-- skill command, and their activations from the attached server's `commands.invoke` in user mode
-- (docs/design.md#9-other-chats-and-other-agents).
--
-- A chat plugin builds its request synchronously, so this module waits, but never longer than TIMEOUT_MS for
-- one request the plugin builds (the catalog and every turn's activation together). Whatever the server
-- cannot answer goes as typed: no server, a timeout, an unknown command, a built-in of Albedo's (`/help`,
-- `/model`, `/reload` belong to Albedo's own client) or a name the chat plugin owns. A refusal (the skill
-- changed on disk, or became invalid) is never turned into a guessed activation: the caller decides whether
-- it can stop the send.

local M = {}

-- The longest one chat request waits for the server before its text goes as typed: a hang guard for the
-- editor (a `commands.invoke` round trip takes milliseconds; see docs/performance.md).
M.TIMEOUT_MS = 2000
-- The most a person's `timeout_ms` can make that wait: a longer setting counts as this, so the editor is
-- never held past it (gptel's chat has the same limit, `albedo-skills-gptel-timeout-limit`).
M.TIMEOUT_LIMIT_MS = 10000
-- How often the wait looks at the answers (vim.wait's interval).
M.POLL_MS = 5

--- Set the wait from a person's option: a number of milliseconds, held within (0, TIMEOUT_LIMIT_MS].
--- Anything else leaves it as it was. Returns the wait now in force.
function M.set_timeout(ms)
  if type(ms) == "number" and ms > 0 then
    M.TIMEOUT_MS = math.min(ms, M.TIMEOUT_LIMIT_MS)
  end
  return M.TIMEOUT_MS
end

local SERVER = "albedo_skills"
local EXECUTE = "workspace/executeCommand"

-- notices already shown, by key: each reason is said once, until the server answers again
local noticed = {}

--- Tell the person about a chat turn. Deferred until the chat plugin's send has run: a message printed in
--- the middle of it (gp leaves insert mode there) lands under the mode line and opens a hit-enter prompt,
--- which would hold the send. A warning, not an error, for the same reason.
function M.say(message)
  vim.schedule(function()
    vim.notify("albedo_skills: " .. message, vim.log.levels.WARN)
  end)
end

--- Say something about a chat turn once per `key` (a later success clears the no-server and timeout keys).
function M.notice(key, message)
  if noticed[key] then
    return false
  end
  noticed[key] = true
  M.say(message)
  return true
end

local function server_answered()
  noticed["no-server"], noticed["timeout"], noticed["catalog"] = nil, nil, nil
end

--- A turn's command and its arguments: the first word when it starts with `/`, and the text after it exactly
--- as typed to the end of the turn, leading white space dropped. nil when the turn starts with no command.
--- A second `/` makes the word a path (`/etc/hosts`), not a command: the server's rule for chat text
--- (albedo_skills_ls/skills/language/slash.py) and gptel's (albedo-skills-gptel--command-regexp).
function M.split(text)
  if type(text) ~= "string" then
    return nil
  end
  local command, rest = text:match("^(/[^%s/]+)(.*)$")
  if not command or not (rest == "" or rest:find("^%s")) then
    return nil
  end
  return command, (rest:gsub("^%s+", ""))
end

-- 0.11 calls a client's methods with `:`; 0.10 took no self
local METHOD_SELF = vim.fn.has("nvim-0.11") == 1

local function call(client, method, ...)
  if METHOD_SELF then
    return client[method](client, ...)
  end
  return client[method](...)
end

local function stopped(client)
  return client.is_stopped ~= nil and call(client, "is_stopped")
end

--- The albedo_skills client attached to `bufnr`, else any running one (a chat buffer the plugin did not
--- attach can still use the server of the workspace), else nil.
function M.client(bufnr)
  local attached = bufnr and vim.api.nvim_buf_is_valid(bufnr) and vim.lsp.get_clients({ bufnr = bufnr, name = SERVER })
  for _, client in ipairs(attached or {}) do
    if not stopped(client) then
      return client
    end
  end
  return require("albedo_skills").running_clients()[1]
end

local function send(client, command, arguments, handler)
  local params = { command = command, arguments = arguments }
  local ok, id = call(client, "request", EXECUTE, params, handler)
  return ok and id or nil
end

--- `commands.catalog` asynchronously: `on_done(entries)` with the server's list, or `on_done(nil, message)`.
function M.catalog(client, on_done)
  return send(client, "commands.catalog", {}, function(err, result)
    if err or type(result) ~= "table" then
      on_done(nil, err and err.message or "the server sent no catalog")
    else
      on_done(result)
    end
  end)
end

--- The skill a command names in a `commands.catalog` answer: `/demo` by its listed command, `/skill:demo` by
--- its name; nil for a built-in or an unknown command.
function M.skill_of(command, entries)
  for _, entry in ipairs(entries) do
    if entry.kind == "skill" and (entry.command == command or command == "/skill:" .. entry.name) then
      return entry
    end
  end
  return nil
end

--- The activations of the turns in `texts` (a list of strings) that start with a skill command.
--- `owned(command)` says which commands the chat plugin itself handles (they go as typed).
--- Returns a table by index: `{ input = ..., intent = ..., command = ... }` for a rewritten turn,
--- `{ refused = message, command = ... }` for a refused one; an index with no entry goes as typed.
--- The no-server and timeout cases are noticed here (once); refusals are the caller's to report.
function M.activations(bufnr, texts, owned)
  local wanted = {}
  for index, text in ipairs(texts) do
    local command, arguments = M.split(text)
    if command and not (owned and owned(command)) then
      wanted[index] = { command = command, arguments = arguments }
    end
  end
  local results = {}
  if next(wanted) == nil then
    return results -- no turn starts with a command: the server is not asked (nor missed)
  end
  local function no_server()
    M.notice(
      "no-server",
      "no Albedo skills server is running for this chat, so slash commands go to the model as typed "
        .. "(open a SKILL.md or run `:checkhealth albedo_skills`)"
    )
    return results
  end
  local client = M.client(bufnr)
  if not client then
    return no_server()
  end
  -- gave_up: the wait ended unanswered; an answer that still comes (the server may have answered before it
  -- saw the cancel) then changes nothing and starts no further request
  local pending, ids, catalog_done, failure, gave_up = 0, {}, false, nil, false
  local function answer(index, command)
    return function(err, result)
      pending = pending - 1
      if gave_up then
        return
      end
      if err then
        results[index] = { refused = err.message or vim.inspect(err), command = command }
      elseif type(result) == "table" and type(result.input) == "string" then
        results[index] = { input = result.input, intent = result.intent, command = command }
      end
    end
  end
  local catalog_id = M.catalog(client, function(entries, message)
    catalog_done = true
    if gave_up then
      return
    end
    if not entries then
      failure = message
      return
    end
    for index, turn in pairs(wanted) do
      if M.skill_of(turn.command, entries) then
        local id = send(client, "commands.invoke", { turn.command, turn.arguments, "user" }, answer(index, turn.command))
        if id then
          pending = pending + 1
          ids[#ids + 1] = id
        end
      end
    end
  end)
  if catalog_id == nil then
    return no_server() -- the client would not send: it is shutting down
  end
  local finished = vim.wait(M.TIMEOUT_MS, function()
    return catalog_done and pending == 0
  end, M.POLL_MS)
  if not finished then
    -- every turn goes as typed, as the notice says: no turn half-rewritten, and no refusal (answered for one
    -- turn before the wait ended) stopping a send the notice said went
    gave_up = true
    for _, id in ipairs({ catalog_id, unpack(ids) }) do
      pcall(call, client, "cancel_request", id)
    end
    M.notice(
      "timeout",
      ("the Albedo skills server did not answer within %d ms, so slash commands went to the model as typed"):format(
        M.TIMEOUT_MS
      )
    )
    return {}
  end
  if failure then
    M.notice("catalog", "the server could not list the skills (" .. failure .. "): slash commands go as typed")
    return results
  end
  server_answered()
  return results
end

return M
