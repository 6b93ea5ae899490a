-- What tests/clients/test_nvim_chats.py reads from the Neovim it drives, without typing into it: each probe is
-- a global function the test evaluates with `nvim --server SOCKET --remote-expr 'v:lua.albedo_probe("name")'`
-- and returns JSON. Nothing here changes the editor's state.

local probes = {}

-- how many albedoSkills/catalogChanged notifications arrived (the plugin turns each into this User event)
local catalog_events = 0
vim.api.nvim_create_autocmd("User", {
  pattern = "AlbedoSkillsCatalogChanged",
  callback = function()
    catalog_events = catalog_events + 1
  end,
})

function probes.catalog_events()
  return catalog_events
end

local function chat_buffer()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local filetype = vim.bo[bufnr].filetype
    if vim.api.nvim_buf_is_loaded(bufnr) and filetype == "codecompanion" then
      return bufnr
    end
  end
  return vim.api.nvim_get_current_buf()
end

local function albedo_clients(bufnr)
  local ids = {}
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr, name = "albedo_skills" })) do
    if not client:is_stopped() then
      table.insert(ids, client.id)
    end
  end
  return ids
end

-- the chat buffer, its attached Albedo clients and its completion function
function probes.chat()
  local bufnr = chat_buffer()
  return {
    bufnr = bufnr,
    name = vim.api.nvim_buf_get_name(bufnr),
    filetype = vim.bo[bufnr].filetype,
    lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false),
    clients = albedo_clients(bufnr),
    omnifunc = vim.bo[bufnr].omnifunc,
    mode = vim.api.nvim_get_mode().mode,
  }
end

-- the skills our extension put into CodeCompanion's own `/` list, and CodeCompanion's entries of those names
function probes.codecompanion_commands()
  local commands = require("codecompanion.config").interactions.chat.slash_commands
  local names = {}
  for name in pairs(commands) do
    if name ~= "opts" then
      table.insert(names, name)
    end
  end
  table.sort(names)
  return {
    names = names,
    ours = vim.tbl_keys(require("albedo_skills.chat.codecompanion").ours),
    now_is_builtin = commands.now ~= nil and commands.now.path ~= nil,
  }
end

-- the bound on how long a chat's send waits for the server (lua/albedo_skills/chat/invoke.lua)
function probes.invoke_timeout_ms()
  return require("albedo_skills.chat.invoke").TIMEOUT_MS
end

-- every running Albedo client, attached or not
function probes.servers()
  return #require("albedo_skills").running_clients()
end

-- the message history (vim.notify writes there), as the person reads it with :messages
function probes.messages()
  return vim.split(vim.fn.execute("messages"), "\n", { trimempty = true })
end

function _G.albedo_probe(name)
  local ok, value = pcall(probes[name])
  if not ok then
    return vim.json.encode({ probe_error = tostring(value) })
  end
  return vim.json.encode(value)
end
