-- Headless Neovim driver for tests/clients/test_neovim.py. Runs as `nvim --headless --clean -u <this file>`.
--
-- Loads the repository's editors/nvim/albedo_skills.lua exactly as a user would (`require` from the
-- package path), then plays a short session and writes what Neovim itself saw (vim.diagnostic, completion
-- results) as JSON. Every wait is on a condition; the bound only turns a hang into a recorded failure.
-- Parameters come as JSON in the file named by $ALBEDO_NVIM_PARAMS:
--   editors_nvim, out, cmd (list), guard_ms, bad, other, user_skill, chats = { {path=, filetype=}, ... }

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.ALBEDO_NVIM_PARAMS), "\n"))
local result = { version = tostring(vim.version().major .. "." .. vim.version().minor .. "." .. vim.version().patch) }
local GUARD = P.guard_ms

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
      items = items.items
    end
    for _, item in ipairs(type(items) == "table" and items or {}) do
      table.insert(out.labels, item.label)
    end
  end
  return out
end

local function main()
  -- count publishes per URI, so a valid file's (empty) diagnostics can be awaited too
  local published = {}
  local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
    published[params.uri] = (published[params.uri] or 0) + 1
    return default_publish(err, params, ctx, config)
  end

  local catalog_changes = 0
  local user_events = 0
  vim.api.nvim_create_autocmd("User", {
    pattern = "AlbedoSkillsCatalogChanged",
    callback = function()
      user_events = user_events + 1
    end,
  })
  result.catalog = {}
  package.path = P.editors_nvim .. "/?.lua;" .. package.path
  local albedo = require("albedo_skills")
  albedo.setup({
    cmd = P.cmd,
    settings = {
      albedoSkills = {
        -- a pattern only the settings know: completion there proves they reached the server
        chat = { filePatterns = { "*.chat.md", "*.prompt" } },
        logLevel = "debug",
      },
    },
    on_catalog_changed = function(params)
      catalog_changes = catalog_changes + 1
      table.insert(result.catalog, params)
    end,
  })

  -- 1. the bad SKILL.md: name-mismatch once the first discovery was announced
  vim.cmd("edit " .. vim.fn.fnameescape(P.bad))
  local bad = vim.api.nvim_get_current_buf()
  result.bad_ready = vim.wait(GUARD, function()
    return catalog_changes > 0 and #vim.diagnostic.get(bad) > 0
  end, 20)
  result.bad_before = diagnostics(bad)
  result.bad_clients = clients_of(bad)

  -- 2. an unopened SKILL.md elsewhere in the workspace got its diagnostics too (workspace-wide)
  local other = vim.fn.bufnr(P.other)
  result.other = other > 0 and diagnostics(other) or {}

  -- 3. fix the name in the buffer (unsaved): the live check clears the diagnostic
  vim.api.nvim_buf_set_lines(bad, 1, 2, false, { "name: bad" })
  result.bad_fixed = vim.wait(GUARD, function()
    return #vim.diagnostic.get(bad) == 0
  end, 20)
  result.bad_after = diagnostics(bad)

  -- 4. a user-root skill joins the running client and is valid
  vim.cmd("edit " .. vim.fn.fnameescape(P.user_skill))
  local user = vim.api.nvim_get_current_buf()
  local user_uri = vim.uri_from_bufnr(user)
  local before = published[user_uri] or 0
  result.user_published = vim.wait(GUARD, function()
    return (published[user_uri] or 0) > before
  end, 20)
  result.user_diagnostics = diagnostics(user)
  result.user_clients = clients_of(user)

  -- 5. chat buffers: `/` at a line start offers the catalog, `/` inside a word offers nothing
  result.chats = {}
  for _, chat in ipairs(P.chats) do
    vim.cmd("edit " .. vim.fn.fnameescape(chat.path))
    local buf = vim.api.nvim_get_current_buf()
    if chat.filetype and chat.filetype ~= vim.NIL then
      vim.cmd("setlocal filetype=" .. chat.filetype)
    end
    local attached = vim.wait(GUARD, function()
      return #clients_of(buf) > 0
    end, 20)
    local entry = {
      path = chat.path,
      filetype = vim.bo[buf].filetype,
      attached = attached,
      clients = clients_of(buf),
      omnifunc = vim.bo[buf].omnifunc,
    }
    if attached then
      entry.line_start = labels_at(buf, 0, 1) -- after "/" on line 0
      entry.mid_word = labels_at(buf, 1, 8) -- after "see and/" on line 1
    end
    table.insert(result.chats, entry)
  end

  -- 6. :AlbedoSkillsReload runs skills.reload; the announcement comes back through the handler
  local before_reload = catalog_changes
  vim.cmd("AlbedoSkillsReload")
  result.reloaded = vim.wait(GUARD, function()
    return catalog_changes > before_reload
  end, 20)
  result.catalog_changes = catalog_changes
  result.user_events = user_events
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(main, debug.traceback)
      if not ok then
        result.error = tostring(err)
      end
      -- a clean exit: shutdown/exit answered before Neovim closes the pipe
      local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
      for _, client in ipairs(clients) do
        vim.lsp.stop_client(client.id)
      end
      result.stopped = vim.wait(GUARD, function()
        return #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) == 0
      end, 20)
      result.messages = vim.fn.execute("messages")
      write_result()
      vim.cmd("qa!")
    end)
  end,
})
