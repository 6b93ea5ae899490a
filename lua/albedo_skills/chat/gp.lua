-- gp.nvim (Robitx/gp.nvim, read and tested at c37f154): its chats are Markdown files in its chat folder,
-- named by date, with no filetype of their own. Two things follow:
--
-- * Recognising them. A buffer whose file lies in gp's chat folder (gp's own test, `not_chat`) is given the
--   language id `gp_chat`, one of the server's default `chat.languageIds`, so the server and this plugin treat
--   it as a chat (`/` completion, hover) while other Markdown files stay plain.
-- * Rewriting. gp has no hook before a send: `chat_respond` parses the whole file into messages each turn and
--   passes them to `dispatcher.prepare_payload`. While `chat_respond` runs, the wrapped `prepare_payload`
--   replaces every user message that starts with a skill command with its activation, in a copy (the file,
--   what the person sees, is never written). gp's topic-naming request is built later, from gp's own
--   messages, outside `chat_respond`: it goes as gp made it. gp cannot be told to stop a send, so a refused
--   turn goes as typed, said once.

local invoke = require("albedo_skills.chat.invoke")

local M = {}

M.LANGUAGE_ID = "gp_chat"

local installed = nil -- the gp module whose functions are wrapped
local responding = nil -- the chat buffer whose chat_respond is running

--- gp's chat folder: its configuration's `chat_dir` once gp is set up, else gp's default.
function M.chat_dir()
  local gp = package.loaded.gp
  local dir = type(gp) == "table" and type(gp.config) == "table" and gp.config.chat_dir or nil
  if type(dir) ~= "string" or dir == "" then
    dir = vim.fn.stdpath("data") .. "/gp/chats"
  end
  return (vim.fn.resolve(dir):gsub("/$", ""))
end

--- Whether `path` is one of gp's chat files: a Markdown file inside its chat folder.
function M.is_chat_file(path)
  if type(path) ~= "string" or not path:match("%.md$") then
    return false
  end
  local dir = M.chat_dir() .. "/"
  return vim.fn.resolve(path):sub(1, #dir) == dir
end

--- Every user message that starts with a skill command, replaced by its activation (a new list; gp's own
--- messages stay as they were).
function M.rewrite(bufnr, messages)
  local texts, where = {}, {}
  for index, message in ipairs(messages) do
    if message.role == "user" and type(message.content) == "string" then
      texts[#texts + 1] = message.content
      where[#texts] = index
    end
  end
  local results = invoke.activations(bufnr, texts, nil)
  local rewritten = {}
  for index, message in ipairs(messages) do
    rewritten[index] = vim.deepcopy(message)
  end
  for turn, result in pairs(results) do
    if result.input then
      rewritten[where[turn]].content = result.input
    elseif result.refused then
      invoke.notice(
        "refused " .. result.command .. result.refused,
        ("%s went as typed (gp.nvim cannot stop a send): %s. Run :AlbedoSkillsReload."):format(
          result.command,
          result.refused
        )
      )
    end
  end
  return rewritten
end

--- Wrap gp's `chat_respond` and `dispatcher.prepare_payload` (once). Returns whether gp is loaded.
function M.setup()
  local gp = package.loaded.gp
  if type(gp) ~= "table" or type(gp.chat_respond) ~= "function" or type(gp.dispatcher) ~= "table" then
    return false
  end
  if installed == gp then
    return true
  end
  installed = gp
  local respond, prepare = gp.chat_respond, gp.dispatcher.prepare_payload
  gp.chat_respond = function(...)
    responding = vim.api.nvim_get_current_buf() -- gp answers the chat in the current buffer
    local ok, err = pcall(respond, ...)
    responding = nil
    if not ok then
      error(err, 0)
    end
  end
  gp.dispatcher.prepare_payload = function(messages, ...)
    if responding and type(messages) == "table" then
      messages = M.rewrite(responding, messages)
    end
    return prepare(messages, ...)
  end
  return true
end

--- For the client's on_attach: a gp chat buffer wires gp up, when gp is loaded.
function M.on_attach(bufnr)
  if M.is_chat_file(vim.api.nvim_buf_get_name(bufnr)) then
    M.setup()
  end
end

return M
