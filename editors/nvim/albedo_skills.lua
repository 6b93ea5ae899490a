-- albedo_skills.lua: Neovim setup for albedo-skills-ls, the language server for Albedo's Agent Skills.
--
-- Works on Neovim 0.7 and later, without nvim-lspconfig. Debian bookworm ships Neovim 0.7.2, where
-- `vim.lsp.start()` does not exist yet: the file then falls back to `vim.lsp.start_client()` plus
-- `vim.lsp.buf_attach_client()`. On 0.8+ it uses `vim.lsp.start()`. Tested headless on 0.7.2 and 0.11.4
-- (tests/clients/test_neovim.py).
--
-- Install: copy this file to ~/.config/nvim/lua/albedo_skills.lua, then in init.lua:
--
--   require("albedo_skills").setup({
--     -- cmd = { "albedo-skills-ls" },                  -- the default; or { "/path/to/python", "-m", "albedo_skills_ls" }
--     settings = {
--       albedoSkills = {
--         -- home = "/some/other/home",                 -- where the user roots live (default: $HOME)
--         -- userRoots = true,
--         -- chat = { languageIds = { "albedo-chat", "codecompanion" }, filePatterns = { "*.chat.md" } },
--         -- logLevel = "info",
--       },
--     },
--     -- on_catalog_changed = function(params, client_id) end,   -- after each discovery (params.skills, ...)
--     -- on_attach = function(client, bufnr) end,
--     -- omnifunc = false,                              -- keep the buffer's own omnifunc
--   })
--
-- What it does:
--   * starts the server for `SKILL.md` buffers (filetype markdown, file name SKILL.md) and for chat buffers:
--     a filetype listed in `albedoSkills.chat.languageIds`, or a file name matching
--     `albedoSkills.chat.filePatterns` (the same defaults as the server);
--   * the root is the nearest directory containing `.agents`, `.albedo` or `.git` (one client per root);
--     a chat buffer, a skill under the user roots (~/.albedo/skills, ~/.agents/skills,
--     ~/.prime/agent/skills) or a SKILL.md outside any root joins a running client instead of starting one;
--   * passes the settings twice, as nvim-lspconfig does: `init_options = { albedoSkills = ... }` and
--     `settings` (answered on `workspace/configuration`);
--   * handles the server's `albedoSkills/catalogChanged` notification: it stores the last payload in
--     `require("albedo_skills").catalog[client_id]`, calls `on_catalog_changed`, and fires
--     `User AlbedoSkillsCatalogChanged` (with `data` on 0.8+);
--   * sets 'omnifunc' to vim.lsp.omnifunc in the buffers it serves (unless `omnifunc = false`), so
--     <C-x><C-o> after `/` in a chat buffer offers the skills;
--   * adds `:AlbedoSkillsReload` (runs the server's `skills.reload` command). Neovim on Linux does not
--     offer file watching to servers, so skills changed outside Neovim are picked up on a save of a
--     SKILL.md in Neovim or by this command.
--
-- Neovim 0.11+ alternative, with the built-in `vim.lsp.config` / `vim.lsp.enable` (no need for this file's
-- setup(); `root_dir` as a function decides per buffer, since `filetypes` alone would attach to every
-- Markdown file):
--
--   local chat_fts = { "albedo-chat", "markdown.chat", "codecompanion", "AvanteInput", "copilot-chat", "gp_chat" }
--   vim.lsp.config("albedo_skills", {
--     cmd = { "albedo-skills-ls" },
--     filetypes = vim.list_extend({ "markdown" }, chat_fts),
--     root_dir = function(bufnr, on_dir)
--       local name = vim.fs.basename(vim.api.nvim_buf_get_name(bufnr))
--       local chat = vim.tbl_contains(chat_fts, vim.bo[bufnr].filetype) or name:match("%.chat%.md$")
--       if name == "SKILL.md" or chat then
--         on_dir(vim.fs.root(bufnr, { ".agents", ".albedo", ".git" }) or vim.fn.getcwd())
--       end
--     end,
--     init_options = { albedoSkills = {} },
--     settings = { albedoSkills = {} },
--     handlers = {
--       ["albedoSkills/catalogChanged"] = function(_, params)
--         vim.api.nvim_exec_autocmds("User", { pattern = "AlbedoSkillsCatalogChanged", data = params })
--       end,
--     },
--   })
--   vim.lsp.enable("albedo_skills")

local M = {}

M.name = "albedo_skills"
M.CATALOG_CHANGED = "albedoSkills/catalogChanged"
M.SKILL_FILE = "SKILL.md"
M.ROOT_MARKERS = { ".agents", ".albedo", ".git" }
M.USER_ROOTS = { ".albedo/skills", ".agents/skills", ".prime/agent/skills" }
-- the server's documented defaults (albedo_skills_ls/lsp/settings.py)
M.DEFAULT_CHAT_LANGUAGE_IDS =
  { "albedo-chat", "markdown.chat", "codecompanion", "AvanteInput", "copilot-chat", "gp_chat" }
M.DEFAULT_CHAT_FILE_PATTERNS = { "*.chat.md" }

M.defaults = {
  cmd = { "albedo-skills-ls" },
  root_markers = M.ROOT_MARKERS,
  settings = { albedoSkills = {} },
  init_options = nil, -- default: { albedoSkills = settings.albedoSkills }
  capabilities = nil, -- default: vim.lsp.protocol.make_client_capabilities()
  on_attach = nil, -- function(client, bufnr), called after ours
  omnifunc = true, -- set 'omnifunc' to vim.lsp.omnifunc in attached buffers (<C-x><C-o> completes `/`)
  on_catalog_changed = nil, -- function(params, client_id)
  handlers = nil, -- extra handlers, merged over ours
  flags = nil,
}

M.config = nil
M.catalog = {} -- client_id -> last albedoSkills/catalogChanged payload
M.clients = {} -- root (or "") -> client_id, for clients this file started

local uv = vim.loop or vim.uv

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

local function basename(path)
  return vim.fn.fnamemodify(path, ":t")
end

local function section(settings)
  return (settings and settings.albedoSkills) or {}
end

-- a setting by dotted name, written nested (`chat = { languageIds = ... }`) or flat (`["chat.languageIds"]`)
local function setting(name, default)
  local values = section(M.config.settings)
  if values[name] ~= nil then
    return values[name]
  end
  local node = values
  for part in name:gmatch("[^.]+") do
    if type(node) ~= "table" then
      return default
    end
    node = node[part]
  end
  if node == nil then
    return default
  end
  return node
end

local function home()
  local configured = setting("home", nil)
  if type(configured) == "string" and configured ~= "" then
    return (vim.fn.fnamemodify(vim.fn.expand(configured), ":p"):gsub("/$", ""))
  end
  return ((uv.os_homedir() or vim.env.HOME or ""):gsub("/$", ""))
end

local function is_chat(bufnr, path)
  local filetype = vim.bo[bufnr].filetype
  if vim.tbl_contains(setting("chat.languageIds", M.DEFAULT_CHAT_LANGUAGE_IDS), filetype) then
    return true
  end
  if path == "" then
    return false
  end
  local name = basename(path)
  for _, pattern in ipairs(setting("chat.filePatterns", M.DEFAULT_CHAT_FILE_PATTERNS)) do
    if vim.fn.match(name, vim.fn.glob2regpat(pattern)) >= 0 then
      return true
    end
  end
  return false
end

local function under_user_root(path)
  if setting("userRoots", true) == false then
    return false
  end
  local base = home()
  for _, rel in ipairs(M.USER_ROOTS) do
    local root = base .. "/" .. rel .. "/"
    if path:sub(1, #root) == root then
      return true
    end
  end
  return false
end

--- The nearest directory at or above `start` that contains one of the root markers, else nil.
function M.find_root(start)
  local dir = start
  while dir and dir ~= "" do
    for _, marker in ipairs(M.config.root_markers) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return nil
    end
    dir = parent
  end
  return nil
end

--- Whether this buffer is one the server serves: a SKILL.md or a chat buffer.
function M.wanted(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path ~= "" and basename(path) == M.SKILL_FILE then
    return true
  end
  return is_chat(bufnr, path)
end

local function live_client(id)
  local client = id and vim.lsp.get_client_by_id(id)
  if client and not (client.is_stopped and client.is_stopped(client)) then
    return client
  end
  return nil
end

local function attached(bufnr)
  for _, id in pairs(M.clients) do
    if live_client(id) and vim.lsp.buf_is_attached(bufnr, id) then
      return true
    end
  end
  return false
end

local function any_client()
  for _, id in pairs(M.clients) do
    if live_client(id) then
      return id
    end
  end
  return nil
end

local function client_config(root)
  local config = M.config
  local handlers = {
    [M.CATALOG_CHANGED] = function(_, params, ctx)
      M.catalog[ctx.client_id] = params
      if config.on_catalog_changed then
        config.on_catalog_changed(params, ctx.client_id)
      end
      local event = { pattern = "AlbedoSkillsCatalogChanged", modeline = false }
      if vim.fn.has("nvim-0.8") == 1 then
        event.data = params
      end
      pcall(vim.api.nvim_exec_autocmds, "User", event)
    end,
  }
  for method, handler in pairs(config.handlers or {}) do
    handlers[method] = handler
  end
  return {
    name = M.name,
    cmd = config.cmd,
    root_dir = root,
    init_options = config.init_options or { albedoSkills = section(config.settings) },
    settings = config.settings,
    capabilities = config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    handlers = handlers,
    on_attach = function(client, bufnr)
      if config.omnifunc then
        vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
      end
      if config.on_attach then
        config.on_attach(client, bufnr)
      end
    end,
    flags = config.flags,
  }
end

local function start(bufnr, root)
  local config = client_config(root)
  local id
  if vim.lsp.start then -- 0.8+
    vim.api.nvim_buf_call(bufnr, function() -- 0.8 attaches the current buffer, 0.9+ honours opts.bufnr
      id = vim.lsp.start(config, {
        bufnr = bufnr,
        reuse_client = function(client, wanted)
          return client.name == wanted.name and client.config.root_dir == wanted.root_dir
        end,
      })
    end)
  else -- 0.7
    id = vim.lsp.start_client(config)
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  if id then
    M.clients[root or ""] = id
  end
  return id
end

--- Attach the server to `bufnr` (starting a client when needed). Returns the client id, or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= "" and not is_chat(bufnr, "") then
    return nil -- a help or terminal buffer; chat plugins' scratch buffers (a chat filetype) are fine
  end
  local path = vim.api.nvim_buf_get_name(bufnr)
  local skill = path ~= "" and basename(path) == M.SKILL_FILE
  local root = path ~= "" and M.find_root(dirname(path)) or nil
  if root == home() then
    root = nil -- the home folder as a workspace would list the user roots twice
  end
  -- only a SKILL.md inside a workspace (not under the user roots) needs a client of its own root
  local loose = not skill or under_user_root(path) or root == nil
  if root and live_client(M.clients[root]) then
    vim.lsp.buf_attach_client(bufnr, M.clients[root])
    return M.clients[root]
  end
  if loose then
    local id = any_client()
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
      return id
    end
    if root == nil or under_user_root(path) then
      root = M.find_root(vim.fn.getcwd()) -- a workspace from where Neovim runs, else user roots only
      if root == home() then
        root = nil
      end
    end
  end
  return start(bufnr, root)
end

function M.setup(opts)
  -- shallow on purpose: a deep merge would blend lists (cmd, root_markers) item by item
  M.config = vim.tbl_extend("force", vim.deepcopy(M.defaults), opts or {})
  local group = vim.api.nvim_create_augroup("albedo_skills", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "*",
    callback = function(args)
      if M.wanted(args.buf) then
        M.attach(args.buf)
      end
    end,
  })
  -- a chat file pattern can match a file with no filetype at all (no FileType event): catch it once read
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    pattern = "*",
    callback = function(args)
      vim.schedule(function() -- after FileType, which attaches the usual cases with their language id
        if vim.api.nvim_buf_is_valid(args.buf) and not attached(args.buf) and M.wanted(args.buf) then
          M.attach(args.buf)
        end
      end)
    end,
  })
  vim.api.nvim_create_user_command("AlbedoSkillsReload", function()
    for _, id in pairs(M.clients) do
      local client = live_client(id)
      if client then
        local params = { command = "skills.reload", arguments = {} }
        if vim.fn.has("nvim-0.11") == 1 then
          client:request("workspace/executeCommand", params, nil, 0)
        else -- before 0.11 a client's methods take no self
          client.request("workspace/executeCommand", params, nil, 0)
        end
      end
    end
  end, { desc = "Albedo skills: discover the skills again" })
  -- buffers already loaded before setup() ran
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and M.wanted(bufnr) then
      M.attach(bufnr)
    end
  end
  return M
end

return M
