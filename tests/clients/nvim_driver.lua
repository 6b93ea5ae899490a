-- Headless Neovim driver for tests/clients/test_neovim.py. Runs as `nvim --headless -u <this file>`.
--
-- The plugin is not loaded by this file: the test installs the repository as a plugin manager would (a
-- package under $XDG_DATA_HOME/nvim/site/pack/*/start, or the repository on 'runtimepath'), so Neovim itself
-- sources plugin/albedo_skills.lua and finds lua/ and lsp/. The driver then plays a session, partly by
-- keystrokes fed to Neovim's input (insert mode, <C-x><C-o>, K, gd, gra, the code-action prompt), and writes
-- what the user ends up with (buffer lines, the window's file and cursor, the hover text, the health report)
-- as JSON. Every wait is on a condition; the bound only turns a hang into a recorded failure.
-- Parameters come as JSON in the file named by $ALBEDO_NVIM_PARAMS:
--   scenario ("setup" | "native"), out, cmd (list or nil), guard_ms, bad, other, user_skill, fixme,
--   good, chats = { {path=, filetype=}, ... }, typed_chat, plain_markdown, agents

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.ALBEDO_NVIM_PARAMS), "\n"))
local v = vim.version()
local result = { version = ("%d.%d.%d"):format(v.major, v.minor, v.patch), scenario = P.scenario }
local GUARD = P.guard_ms
local uv = vim.loop or vim.uv

local function write_result()
  vim.fn.writefile({ vim.json.encode(result) }, P.out)
end

local function clients_of(buf)
  local found = {}
  if vim.lsp.get_clients then
    found = vim.lsp.get_clients({ bufnr = buf })
  else
    for _, client in pairs(vim.lsp.buf_get_clients(buf)) do
      table.insert(found, client)
    end
  end
  local ids = {}
  for _, client in ipairs(found) do
    table.insert(ids, client.id)
  end
  table.sort(ids)
  return ids
end

local function all_clients()
  return vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
end

local function diagnostics(buf)
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(items, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
  end
  return items
end

local function lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

local function labels_at(buf, line, character)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line, character = character },
    context = { triggerKind = 1 }, -- Invoked: what <C-x><C-o> (vim.lsp.omnifunc) asks for
  }
  local out = { labels = {}, errors = {} }
  local supported = false
  for _, id in ipairs(clients_of(buf)) do
    local caps = vim.lsp.get_client_by_id(id).server_capabilities
    supported = supported or (caps ~= nil and caps.completionProvider ~= nil)
  end
  if not supported then -- asking anyway would make buf_request_sync wait out the whole guard on 0.7
    table.insert(out.errors, "the server declared no completionProvider")
    return out
  end
  local responses, err = vim.lsp.buf_request_sync(buf, "textDocument/completion", params, GUARD)
  if not responses then
    table.insert(out.errors, tostring(err))
    return out
  end
  for _, response in pairs(responses) do
    local problem = response.err or response.error
    if problem then
      table.insert(out.errors, vim.inspect(problem))
    end
    local items = response.result
    if type(items) == "table" and items.items then
      -- a CompletionList: one edit range for every item when the client declared itemDefaults (0.10+)
      out.default_range = items.itemDefaults ~= nil and items.itemDefaults.editRange ~= nil
      items = items.items
    end
    for _, item in ipairs(type(items) == "table" and items or {}) do
      table.insert(out.labels, item.label)
    end
  end
  return out
end

-- --- keystrokes ---------------------------------------------------------------------------------------------
-- The session runs in a coroutine. `type_keys` puts keys in Neovim's typeahead, as a user's typing would, and
-- yields to the main loop so Neovim processes them (insert mode, omnifunc, mappings); `wait_for` polls a
-- condition from a timer while the main loop runs, and resumes the session when it holds or the guard ends.

local session -- the coroutine

local function wait_for(condition)
  if condition() then
    return true
  end
  local deadline = uv.hrtime() + GUARD * 1e6
  local timer = uv.new_timer()
  timer:start(
    10,
    10,
    vim.schedule_wrap(function()
      if timer:is_closing() then
        return
      end
      local ok, held = pcall(condition)
      held = ok and held
      if held or uv.hrtime() > deadline then
        timer:stop()
        timer:close()
        local resumed, err = coroutine.resume(session, held and true or false)
        if not resumed then
          result.error = debug.traceback(session, tostring(err))
        end
      end
    end)
  )
  return coroutine.yield()
end

local function type_keys(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "mt", false)
end

-- Type keys that end in normal mode and wait until Neovim has processed all of them: a last <Cmd> sets a
-- counter, so the wait is on the keys themselves rather than on a mode that may already hold.
local keys_done, keys_sent = 0, 0
function _G.albedo_driver_keys_done(count)
  keys_done = count
end
local function type_keys_and_settle(keys)
  keys_sent = keys_sent + 1
  type_keys(keys .. ("<Cmd>lua albedo_driver_keys_done(%d)<CR>"):format(keys_sent))
  return wait_for(function()
    return keys_done == keys_sent
  end)
end

local function completion_offered()
  local info = vim.fn.complete_info({ "items" })
  return info.items ~= nil and #info.items > 0
end

local function offered_words()
  local words = {}
  for _, item in ipairs(vim.fn.complete_info({ "items" }).items or {}) do
    table.insert(words, item.word)
  end
  return words
end

local function normal_mode()
  return vim.api.nvim_get_mode().mode == "n"
end

--- In the current buffer: open a new last line, type `text`, press <C-x><C-o>; once the server's items are
--- in the completion menu, accept the selected one with <C-y> and leave insert mode. Returns what the user
--- ends up with: the line, and the words that were offered. `line`: type at the end of that (1-based) line
--- instead; `rest`: the new last line already holds `rest`, and `text` is typed before it.
local function complete_by_keys(text, line, rest)
  local buf = vim.api.nvim_get_current_buf()
  local last = vim.api.nvim_buf_line_count(buf)
  local empty = last == 1 and vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == ""
  local start = empty and "i" or "Go"
  if line then
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    start = "A"
  elseif rest then
    vim.api.nvim_buf_set_lines(buf, empty and 0 or -1, -1, false, { rest })
    vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(buf), 0 })
    start = "i"
  end
  type_keys(start .. text .. "<C-x><C-o>")
  local offered = wait_for(completion_offered)
  local words = offered and offered_words() or {}
  local menu = vim.fn.pumvisible() == 1
  if menu then -- a menu is confirmed with <C-y>; a single match without a menu is already in the line
    local selected = vim.fn.complete_info({ "selected", "items" })
    local item = selected.items[selected.selected + 1] or {}
    local lsp_item = vim.tbl_get(type(item.user_data) == "table" and item.user_data or {}, "nvim", "lsp", "completion_item")
    type_keys("<C-y>")
    if lsp_item and lsp_item.insertTextFormat == 2 and vim.snippet then
      -- 0.11 expands a snippet once <C-y> is processed; the user sees its placeholder, then leaves
      wait_for(function()
        return vim.snippet.active()
      end)
    end
  end
  type_keys("<Esc>")
  wait_for(normal_mode)
  local row = line or vim.api.nvim_buf_line_count(buf)
  return { typed = text, offered = offered, words = words, line = vim.api.nvim_buf_get_lines(buf, row - 1, row, false)[1] }
end

local function floating_text()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      return table.concat(lines(vim.api.nvim_win_get_buf(win)), "\n")
    end
  end
  return nil
end

local function has_code(buf, code)
  for _, d in ipairs(diagnostics(buf)) do
    if d.code == code then
      return true
    end
  end
  return false
end

local function place_cursor(buf, pattern)
  for index, text in ipairs(lines(buf)) do
    local col = text:find(pattern, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { index, col }) -- on the second character of the match
      return
    end
  end
  error("no " .. pattern .. " in the buffer")
end

--- `gra` (the suggested mapping) in `buf`, then at Neovim's prompt (vim.ui.select, an inputlist) the number of
--- the action titled `wanted` and <CR>, as the user types them. Returns the titles shown, and whether the
--- buffer changed.
local function quick_fix_by_keys(buf, wanted)
  local builtin_select = vim.ui.select
  local titles = {}
  vim.ui.select = function(items, opts, on_choice)
    local number
    for index, item in ipairs(items) do
      local title = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(titles, title)
      if title == wanted then
        number = index
      end
    end
    type_keys((number and tostring(number) or "") .. "<CR>") -- answered at the prompt once it reads input
    return builtin_select(items, opts, on_choice)
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  type_keys("gra")
  local applied = wait_for(function()
    return vim.api.nvim_buf_get_changedtick(buf) > tick
  end)
  vim.ui.select = builtin_select
  return titles, applied
end

local function edit(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local function attach_wait(buf)
  return wait_for(function()
    return #clients_of(buf) > 0
  end)
end

local function check_health()
  vim.cmd("checkhealth albedo_skills")
  local report = table.concat(lines(vim.api.nvim_get_current_buf()), "\n")
  pcall(vim.cmd, "tabclose") -- the report opens in a tab of its own
  return report
end

-- --- the shared checks ---------------------------------------------------------------------------------------

local published = {}
local catalog_changes = 0
local user_events = 0

local function observe()
  -- count publishes per URI, so a valid file's (empty) diagnostics can be awaited too
  local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
    published[params.uri] = (published[params.uri] or 0) + 1
    return default_publish(err, params, ctx, config)
  end
  vim.api.nvim_create_autocmd("User", {
    pattern = "AlbedoSkillsCatalogChanged",
    callback = function()
      user_events = user_events + 1
    end,
  })
end

local function keystroke_checks(albedo)
  -- slash completion in a chat file typed from scratch: accepting must leave exactly the command
  local typed = edit(P.typed_chat)
  result.typed_attached = attach_wait(typed)
  result.typed_clients = clients_of(typed)
  result.typed_omnifunc = vim.bo[typed].omnifunc
  result.typed = {
    first = complete_by_keys("/"), -- the first item (built-ins come first): /help
    prefix = complete_by_keys("/goo"),
    mid_line = complete_by_keys("/goo", nil, " please"), -- the message already after the cursor
    argument = complete_by_keys("/reload se"),
  }

  -- K over a /command shows the skill's description; gd opens its SKILL.md at the name
  type_keys_and_settle("Go/good now<Esc>")
  place_cursor(typed, "/good now")
  type_keys("K")
  result.hover_shown = wait_for(function()
    return floating_text() ~= nil
  end)
  result.hover = floating_text()
  type_keys("<Esc>") -- not needed to close a float on every version, harmless everywhere
  vim.cmd("silent! fclose!") -- 0.10+; older versions close on the next cursor move
  type_keys("gd")
  result.definition_opened = wait_for(function()
    return vim.api.nvim_buf_get_name(0) == P.good
  end)
  result.definition = { path = vim.api.nvim_buf_get_name(0), cursor = vim.api.nvim_win_get_cursor(0) }

  -- SKILL.md fields: on an empty frontmatter line, the menu offers the missing fields; <C-y> takes the first
  local fields = edit(P.fields)
  result.fields_attached = attach_wait(fields)
  result.field_menu = complete_by_keys("", 3)
  result.field_prefix = complete_by_keys("lic", 4)
  result.fields_after = lines(fields)

  -- a quick fix through the suggested mapping and Neovim's own prompt (vim.ui.select -> inputlist): the
  -- user reads the numbered titles and types the number of the rename, then <CR>
  local fixme = edit(P.fixme)
  result.fixme_ready = wait_for(function()
    return #vim.diagnostic.get(fixme) > 0
  end)
  place_cursor(fixme, "desciption")
  result.code_actions, result.fix_applied = quick_fix_by_keys(fixme, "Rename `desciption` to `description`")
  result.fixme_after = lines(fixme)
  result.fixme_diagnostics_cleared = wait_for(function()
    return not has_code(fixme, "field-unknown")
  end)

  -- an agent's instruction file: the plugin sends AGENTS.md, the server underlines a mistyped command in the
  -- buffer, and the did-you-mean fix chosen at the prompt writes the command
  local agents = edit(P.agents)
  result.agents_attached = attach_wait(agents)
  result.agents_warned = wait_for(function()
    return has_code(agents, "command-unknown")
  end)
  result.agents_diagnostics = diagnostics(agents)
  place_cursor(agents, "/goood")
  result.agents_actions, result.agents_fixed = quick_fix_by_keys(agents, "Change to `/good`")
  result.agents_after = lines(agents)

  -- an empty SKILL.md: the quick fix adds the frontmatter; the completion item does too where the client can
  -- insert several lines (0.11 expands it as a snippet; 0.7's omnifunc puts the line breaks in as NULs)
  local blank = edit(P.blank_fix)
  result.blank_fix_ready = wait_for(function()
    return #vim.diagnostic.get(blank) > 0
  end)
  result.blank_actions, result.blank_fixed = quick_fix_by_keys(blank, "Add frontmatter with `name` and `description`")
  result.blank_after = lines(blank)
  local template = edit(P.blank_template)
  result.template_attached = attach_wait(template)
  result.template_completion = complete_by_keys("")
  result.template_after = lines(template)
  result.catalog_count = albedo.catalog and vim.tbl_count(albedo.catalog) or 0
end

-- --- scenario "setup": require("albedo_skills").setup(), on every version ---------------------------------------

local function setup_scenario()
  local albedo = require("albedo_skills")
  result.lua_defaults = albedo.SETTING_DEFAULTS
  -- before setup(), with nothing on PATH: the report says what to do
  result.health_before = check_health()
  result.catalog = {}
  observe()
  albedo.setup({
    cmd = P.cmd,
    settings = {
      albedoSkills = {
        -- a pattern only the settings know: completion there proves they reached the server
        chat = { filePatterns = { "*.chat.md", "*.prompt" } },
        logLevel = "debug",
      },
    },
    on_attach = function(_, bufnr)
      albedo.set_mappings(bufnr) -- what the README suggests
    end,
    on_catalog_changed = function(params)
      catalog_changes = catalog_changes + 1
      table.insert(result.catalog, params)
    end,
  })

  -- 1. the bad SKILL.md: name-mismatch once the first discovery was announced
  local bad = edit(P.bad)
  result.bad_ready = wait_for(function()
    return catalog_changes > 0 and #vim.diagnostic.get(bad) > 0
  end)
  result.bad_before = diagnostics(bad)
  result.bad_clients = clients_of(bad)

  -- 2. an unopened SKILL.md elsewhere in the workspace got its diagnostics too (workspace-wide)
  local other = vim.fn.bufnr(P.other)
  result.other = other > 0 and diagnostics(other) or {}

  -- 3. fix the name in the buffer (unsaved): the live check clears the diagnostic
  vim.api.nvim_buf_set_lines(bad, 1, 2, false, { "name: bad" })
  result.bad_fixed = wait_for(function()
    return #vim.diagnostic.get(bad) == 0
  end)
  result.bad_after = diagnostics(bad)

  -- 4. a user-root skill joins the running client and is valid
  local user = edit(P.user_skill)
  local user_uri = vim.uri_from_bufnr(user)
  local before = published[user_uri] or 0
  result.user_published = wait_for(function()
    return (published[user_uri] or 0) > before
  end)
  result.user_diagnostics = diagnostics(user)
  result.user_clients = clients_of(user)

  -- 5. chat buffers: `/` at a line start offers the catalog, `/` inside a word offers nothing
  result.chats = {}
  for _, chat in ipairs(P.chats) do
    local buf = edit(chat.path)
    if chat.filetype and chat.filetype ~= vim.NIL then
      vim.cmd("setlocal filetype=" .. chat.filetype)
    end
    local entry = { path = chat.path, attached = attach_wait(buf) }
    entry.filetype = vim.bo[buf].filetype
    entry.clients = clients_of(buf)
    entry.omnifunc = vim.bo[buf].omnifunc
    if entry.attached then
      entry.line_start = labels_at(buf, 0, 1) -- after "/" on line 0
      entry.mid_word = labels_at(buf, 1, 8) -- after "see and/" on line 1
    end
    table.insert(result.chats, entry)
  end

  -- 6. by keystrokes: completion, hover, definition, quick fix
  keystroke_checks(albedo)

  -- 7. :AlbedoSkillsReload runs skills.reload; the announcement comes back through the handler
  local before_reload = catalog_changes
  type_keys(":AlbedoSkillsReload<CR>")
  result.reloaded = wait_for(function()
    return catalog_changes > before_reload
  end)
  result.catalog_changes = catalog_changes
  result.user_events = user_events
  result.health_after = check_health()
end

-- --- scenario "native": 0.11's vim.lsp.enable with lsp/albedo_skills.lua from the runtimepath -------------------

local function native_scenario()
  local albedo = require("albedo_skills")
  observe()
  vim.lsp.config("albedo_skills", { settings = { albedoSkills = { logLevel = "debug" } } })
  vim.lsp.enable("albedo_skills")

  local bad = edit(P.bad)
  result.bad_ready = wait_for(function()
    return #vim.diagnostic.get(bad) > 0
  end)
  result.bad_before = diagnostics(bad)
  result.bad_clients = clients_of(bad)

  -- other Markdown is not the server's business
  local plain = edit(P.plain_markdown)
  result.plain_filetype = vim.bo[plain].filetype
  local flushed = false -- vim.lsp.enable starts clients from vim.schedule: let those run first
  vim.schedule(function()
    flushed = true
  end)
  wait_for(function()
    return flushed
  end)
  result.plain_clients = clients_of(plain)

  -- a chat plugin's scratch buffer: nofile, no name, filetype codecompanion (as CodeCompanion makes it)
  vim.cmd("enew")
  local scratch = vim.api.nvim_get_current_buf()
  vim.bo[scratch].buftype = "nofile"
  vim.bo[scratch].bufhidden = "hide"
  vim.bo[scratch].swapfile = false
  vim.bo[scratch].filetype = "codecompanion"
  result.scratch_attached = attach_wait(scratch)
  result.scratch_clients = clients_of(scratch)
  result.scratch_completion = complete_by_keys("/goo")
  type_keys(":AlbedoSkillsReload<CR>")
  local before = user_events
  result.reloaded = wait_for(function()
    return user_events > before
  end)
  result.health_after = check_health()
  result.catalog_count = vim.tbl_count(albedo.catalog)
end

local function finish()
  -- a clean exit: shutdown/exit answered before Neovim closes the pipe
  for _, client in ipairs(all_clients()) do
    vim.lsp.stop_client(client.id)
  end
  result.stopped = vim.wait(GUARD, function()
    return #all_clients() == 0
  end, 20)
  result.messages = vim.fn.execute("messages")
  write_result()
  vim.cmd("qa!")
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      session = coroutine.create(function()
        local ok, err = xpcall(P.scenario == "native" and native_scenario or setup_scenario, debug.traceback)
        if not ok then
          result.error = tostring(err)
        end
        vim.schedule(finish)
      end)
      local resumed, err = coroutine.resume(session)
      if not resumed then
        result.error = tostring(err)
        finish()
      end
    end)
  end,
})
