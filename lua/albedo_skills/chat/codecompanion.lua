-- CodeCompanion (olimorris/codecompanion.nvim, read and tested at f1afd02): a user turn that starts with a
-- skill command reaches the model as the server's activation, while the chat buffer keeps what was typed.
-- Loaded by the CodeCompanion extension `albedo_skills` (lua/codecompanion/_extensions/albedo_skills/).
--
-- Where it hooks in, in CodeCompanion's own order for a submit (Chat:submit):
--   1. `on_before_submit` (a chat callback, added to each chat when it is created): the last user turn, as
--      CodeCompanion parses it, is resolved with the server once. A refusal cancels the send (the callback may
--      return false) and says why; the buffer stays editable so the person can reload and send again.
--   2. `interactions.chat.opts.prompt_decorator`: wrapped, so the turn CodeCompanion stores and sends is the
--      activation, then passed to the decorator the user had set, if any. The buffer is never written.
-- Its own `/` menu (slash_commands) lists the skills, rebuilt on each `albedoSkills/catalogChanged`; a name
-- CodeCompanion already has (`/buffer`, `/now`, a prompt library alias) is left to CodeCompanion and goes as
-- typed. Choosing a skill there puts `/name` back where the person typed it (CodeCompanion deletes the word
-- it completed), so the rest of the line becomes the skill's arguments.

local invoke = require("albedo_skills.chat.invoke")

local M = {}

M.ours = {} -- slash command name -> true, for the entries this module added to CodeCompanion's list
M.opts = {}

local pending = nil -- the activation resolved by on_before_submit, for the decorator of the same submit

local function chat_config()
  local config = require("codecompanion.config")
  return (config.interactions or config.strategies).chat
end

-- the names of CodeCompanion's prompt library items that are slash commands (their alias, else their name)
local function prompt_library_names()
  local ok, prompts = pcall(function()
    return require("codecompanion.helpers").get_prompts()
  end)
  local names = {}
  for _, prompt in pairs(ok and type(prompts) == "table" and prompts or {}) do
    local opts = type(prompt) == "table" and prompt.opts or nil
    if opts and opts.is_slash_cmd then
      names[opts.alias or opts.name or ""] = true
    end
  end
  return names
end

--- Whether CodeCompanion itself owns this slash command (its built-ins, the user's own, its prompt library):
--- such a turn goes as typed, as docs/design.md#9-other-chats-and-other-agents says (the plugin's own commands win).
function M.owned(command)
  local name = command:sub(2)
  if M.ours[name] then
    return false
  end
  return chat_config().slash_commands[name] ~= nil or prompt_library_names()[name] == true
end

local function insert_command(command)
  return function(chat)
    -- CodeCompanion removed the completed word before calling us; put the command back at the cursor
    local win = vim.api.nvim_get_current_win()
    local bufnr = chat and chat.bufnr or vim.api.nvim_get_current_buf()
    if vim.api.nvim_win_get_buf(win) ~= bufnr then
      return
    end
    local row, col = unpack(vim.api.nvim_win_get_cursor(win))
    vim.api.nvim_buf_set_text(bufnr, row - 1, col, row - 1, col, { command })
    vim.api.nvim_win_set_cursor(win, { row, col + #command })
  end
end

--- Make CodeCompanion's slash command list hold the skills of a `commands.catalog` answer, and nothing it
--- held before from an older catalog.
function M.publish(entries)
  local commands = chat_config().slash_commands
  for name in pairs(M.ours) do
    commands[name] = nil
  end
  M.ours = {}
  local library = prompt_library_names()
  for _, entry in ipairs(entries or {}) do
    local name = entry.kind == "skill" and type(entry.command) == "string" and entry.command:sub(2) or nil
    if name and commands[name] == nil and not library[name] then
      commands[name] = {
        description = entry.description,
        callback = insert_command(entry.command),
        opts = { contains_code = false },
      }
      M.ours[name] = true
    end
  end
end

--- Ask a running server for the catalog and publish it (asynchronous; nothing happens without a server).
function M.refresh()
  local client = invoke.client(nil)
  if client then
    invoke.catalog(client, vim.schedule_wrap(function(entries)
      if entries then
        M.publish(entries)
      end
    end))
  end
end

local function before_submit(chat)
  pending = nil
  local ok, message = pcall(function()
    return require("codecompanion.interactions.chat.parser").messages(chat, chat.header_line)
  end)
  if not ok or type(message) ~= "table" or type(message.content) ~= "string" then
    return nil
  end
  local result = invoke.activations(chat.bufnr, { message.content }, M.owned)[1]
  if result and result.refused then
    invoke.say(("%s was not sent: %s. Run :AlbedoSkillsReload, then send again."):format(result.command, result.refused))
    return false -- cancels this submit; CodeCompanion keeps the buffer as typed and editable
  end
  if result then
    pending = { command = result.command, input = result.input }
  end
  return nil
end

local function decorate(previous)
  return function(message, adapter, context)
    local resolved = pending
    pending = nil
    if resolved and invoke.split(message) == resolved.command then
      message = resolved.input
    end
    if previous then
      return previous(message, adapter, context)
    end
    return message
  end
end

local function watch_chat(args)
  local bufnr = args.data and args.data.bufnr
  local ok, chat = pcall(function()
    return require("codecompanion").buf_get_chat(bufnr)
  end)
  if ok and chat and chat.add_callback then
    chat:add_callback("on_before_submit", before_submit)
  end
end

--- Called by the extension's setup (CodeCompanion's `extensions = { albedo_skills = { opts = ... } }`).
function M.setup(opts)
  M.opts = opts or {}
  invoke.set_timeout(M.opts.timeout_ms)
  local chat_opts = chat_config().opts
  if not M.decorated or chat_opts.prompt_decorator ~= M.decorated then
    M.decorated = decorate(chat_opts.prompt_decorator)
    chat_opts.prompt_decorator = M.decorated
  end
  local group = vim.api.nvim_create_augroup("albedo_skills_codecompanion", { clear = true })
  vim.api.nvim_create_autocmd("User", { group = group, pattern = "CodeCompanionChatCreated", callback = watch_chat })
  vim.api.nvim_create_autocmd("User", { group = group, pattern = "AlbedoSkillsCatalogChanged", callback = M.refresh })
  M.refresh()
end

return M
