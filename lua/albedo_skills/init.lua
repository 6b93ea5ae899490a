-- albedo_skills: Neovim client for albedo-skills-ls, the language server for Albedo's Agent Skills.
--
-- Works on Neovim 0.7.2 (Debian bookworm) to 0.11+, without nvim-lspconfig. Installed as a plugin from the
-- repository root (lua/, lsp/, plugin/, doc/); `:help albedo_skills` has the options. Two ways to use it:
--
--   require("albedo_skills").setup({ ... })   -- any version: this module starts and attaches the clients
--   vim.lsp.enable("albedo_skills")            -- 0.11+: the built-in route, through lsp/albedo_skills.lua
--
-- Neovim 0.7 has no `vim.lsp.start()`: the module then uses `vim.lsp.start_client()` and
-- `vim.lsp.buf_attach_client()`. Tested by keystrokes on 0.7.2 and 0.11.4 (tests/clients/test_neovim.py).

local M = {}

M.name = "albedo_skills"
-- What the plugin must know before any server runs, to choose the buffers a server gets, and the defaults
-- of the settings it reads itself (only what the person set is sent): generated from the server's
-- declarations into lua/albedo_skills/declared.lua by `python -m albedo_skills_ls.generate`.
local declared = require("albedo_skills.declared")
M.CATALOG_CHANGED = declared.CATALOG_CHANGED
M.SKILL_FILE = declared.SKILL_FILE
M.ROOT_MARKERS = declared.ROOT_MARKERS
M.USER_ROOTS = declared.USER_ROOTS
M.DEFAULT_CHAT_LANGUAGE_IDS = declared.DEFAULT_CHAT_LANGUAGE_IDS
M.DEFAULT_CHAT_FILE_PATTERNS = declared.DEFAULT_CHAT_FILE_PATTERNS
-- agents' instruction files, by name in any folder: the server checks the /commands they mention as typed
M.AGENT_INSTRUCTION_FILES = declared.AGENT_INSTRUCTION_FILES
M.SETTING_DEFAULTS = declared.SETTING_DEFAULTS
M.DEFAULT_CMD = { "albedo-skills-ls" }

M.defaults = {
  cmd = M.DEFAULT_CMD,
  root_markers = M.ROOT_MARKERS,
  settings = { albedoSkills = {} }, -- passed through: e.g. { albedoSkills = { security = { enable = false } } }
  init_options = nil, -- default: { albedoSkills = settings.albedoSkills }
  capabilities = nil, -- default: vim.lsp.protocol.make_client_capabilities()
  on_attach = nil, -- function(client, bufnr), called after ours
  omnifunc = true, -- set 'omnifunc' to vim.lsp.omnifunc in attached buffers (<C-x><C-o> completes `/`)
  mappings = false, -- true: the buffer-local mappings of M.set_mappings in attached buffers
  on_catalog_changed = nil, -- function(params, client_id)
  handlers = nil, -- extra handlers, merged over ours
  flags = nil,
}

M.config = nil -- the options of setup(), nil until it runs
M.catalog = {} -- client_id -> last albedoSkills/catalogChanged payload
M.clients = {} -- root (or "") -> client_id, for clients setup() started

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

-- a setting by dotted name, written nested (`chat = { languageIds = ... }`) or flat (`["chat.languageIds"]`);
-- unset, its default in M.SETTING_DEFAULTS, which must list it
local function setting(settings, name)
  local default = M.SETTING_DEFAULTS[name]
  assert(default ~= nil, "albedo_skills: no default for the setting " .. name)
  local values = section(settings)
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

local function home(settings)
  local configured = setting(settings, "home")
  if type(configured) == "string" and configured ~= "" then
    return (vim.fn.fnamemodify(vim.fn.expand(configured), ":p"):gsub("/$", ""))
  end
  return ((uv.os_homedir() or vim.env.HOME or ""):gsub("/$", ""))
end

--- The settings in force: setup()'s, else the 0.11 `vim.lsp.config` entry's, else the server defaults.
function M.settings()
  if M.config then
    return M.config.settings
  end
  if vim.lsp.config and vim.lsp.is_enabled and vim.lsp.is_enabled(M.name) then
    return vim.lsp.config[M.name].settings
  end
  return {}
end

--- The language id the server gets for a buffer: its filetype, except for gp.nvim's chat files (Markdown, no
--- filetype of their own), which are `gp_chat`, a default chat language id (lua/albedo_skills/chat/gp.lua).
function M.language_id(bufnr, filetype)
  if require("albedo_skills.chat.gp").is_chat_file(vim.api.nvim_buf_get_name(bufnr)) then
    return "gp_chat"
  end
  return filetype or vim.bo[bufnr].filetype
end

local function is_chat(bufnr, path, settings)
  if vim.tbl_contains(setting(settings, "chat.languageIds"), M.language_id(bufnr)) then
    return true
  end
  if path == "" then
    return false
  end
  local name = basename(path)
  for _, pattern in ipairs(setting(settings, "chat.filePatterns")) do
    if vim.fn.match(name, vim.fn.glob2regpat(pattern)) >= 0 then
      return true
    end
  end
  return false
end

local function under_user_root(path, settings)
  if setting(settings, "userRoots") == false then
    return false
  end
  local base = home(settings)
  for _, rel in ipairs(M.USER_ROOTS) do
    local root = base .. "/" .. rel .. "/"
    if path:sub(1, #root) == root then
      return true
    end
  end
  return false
end

--- The nearest directory at or above `start` that contains one of the root markers, else nil.
function M.find_root(start, markers)
  markers = markers or (M.config and M.config.root_markers) or M.ROOT_MARKERS
  local dir = start
  while dir and dir ~= "" do
    for _, marker in ipairs(markers) do
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

--- Whether this buffer is one the server serves: a SKILL.md, an agent's instruction file or a chat buffer.
function M.wanted(bufnr, settings)
  settings = settings or M.settings()
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path ~= "" and (basename(path) == M.SKILL_FILE or vim.tbl_contains(M.AGENT_INSTRUCTION_FILES, basename(path))) then
    return true
  end
  return is_chat(bufnr, path, settings)
end

--- Where a buffer's server should run: `root` (a folder, or nil for "the user roots only") and whether
--- the buffer may join any running client instead (`loose`: chat buffers, user-root skills, and skills
--- outside every root; only a SKILL.md inside a workspace needs the client of its own root).
function M.placement(bufnr, settings)
  settings = settings or M.settings()
  local path = vim.api.nvim_buf_get_name(bufnr)
  local skill = path ~= "" and basename(path) == M.SKILL_FILE
  local root = path ~= "" and vim.bo[bufnr].buftype == "" and M.find_root(dirname(path)) or nil
  local user_home = home(settings)
  if root == user_home then
    root = nil -- the home folder as a workspace would list the user roots twice
  end
  local loose = not skill or under_user_root(path, settings) or root == nil
  if loose and (root == nil or under_user_root(path, settings)) then
    root = M.find_root(vim.fn.getcwd()) -- a workspace from where Neovim runs, else user roots only
    if root == user_home then
      root = nil
    end
  end
  return root, loose
end

local function live_client(id)
  local client = id and vim.lsp.get_client_by_id(id)
  if client and not (client.is_stopped and client.is_stopped(client)) then
    return client
  end
  return nil
end

-- every running albedo_skills client, whichever route started it
local function running_clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = M.name }) or vim.lsp.get_active_clients()
  local found = {}
  for _, client in ipairs(all) do
    if client.name == M.name and not (client.is_stopped and client.is_stopped(client)) then
      table.insert(found, client)
    end
  end
  return found
end

local function request(client, method, params)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, nil, 0)
  end
  return client.request(method, params, nil, 0) -- before 0.11 a client's methods take no self
end

--- Run the server's `skills.reload` command in every running client (`:AlbedoSkillsReload`).
function M.reload()
  local clients = running_clients()
  for _, client in ipairs(clients) do
    request(client, "workspace/executeCommand", { command = "skills.reload", arguments = {} })
  end
  return #clients
end

--- `:AlbedoSkillsReload`, for either route (plugin/albedo_skills.lua and setup() both define it).
function M.create_commands()
  vim.api.nvim_create_user_command("AlbedoSkillsReload", function()
    if M.reload() == 0 then
      vim.notify("albedo_skills: no server is running", vim.log.levels.WARN)
    end
  end, { desc = "Albedo skills: discover the skills again", force = true })
end

local function buf_map(bufnr, lhs, rhs, desc)
  vim.keymap.set("n", lhs, rhs, { buffer = bufnr, silent = true, desc = "Albedo skills: " .. desc })
end

--- Suggested buffer-local mappings, for `on_attach` (or `mappings = true`). Neovim 0.7 maps none of these
--- to LSP by itself (`K` runs `man`, `<C-]>` looks for tags); 0.10+ has `K`, `[d`, `]d` and 0.11 `gra`.
function M.set_mappings(bufnr)
  buf_map(bufnr, "K", vim.lsp.buf.hover, "describe the skill or field under the cursor")
  buf_map(bufnr, "gd", vim.lsp.buf.definition, "open the SKILL.md of the /command under the cursor")
  buf_map(bufnr, "gra", vim.lsp.buf.code_action, "quick fixes")
  buf_map(bufnr, "grn", vim.lsp.buf.rename, "rename the skill under the cursor everywhere")
  buf_map(bufnr, "grr", vim.lsp.buf.references, "list the places that use the skill under the cursor")
  if vim.diagnostic.jump then -- 0.11 deprecates goto_prev/goto_next
    buf_map(bufnr, "[d", function() vim.diagnostic.jump({ count = -1, float = true }) end, "previous diagnostic")
    buf_map(bufnr, "]d", function() vim.diagnostic.jump({ count = 1, float = true }) end, "next diagnostic")
  else
    buf_map(bufnr, "[d", vim.diagnostic.goto_prev, "previous diagnostic")
    buf_map(bufnr, "]d", vim.diagnostic.goto_next, "next diagnostic")
  end
  vim.bo[bufnr].tagfunc = "v:lua.vim.lsp.tagfunc" -- <C-]> and :tag go to the definition too
end

--- 'omnifunc' for <C-x><C-o>. On 0.11+ also vim.lsp.completion (without autotrigger): accepting an item with
--- <C-y> then expands its snippet (a SKILL.md field such as `description: ${1}`); the omnifunc alone inserts
--- only the label of a snippet item. And 'menuone' in these buffers (0.11 makes 'completeopt' local to a
--- buffer): without a menu a single match cannot be accepted, so its snippet would stay a bare label.
--- A Lua omnifunc another plugin set is kept: CodeCompanion's chat buffer has its own, whose `/` menu holds its
--- commands and, through its albedo_skills extension, the skills (lua/albedo_skills/chat/codecompanion.lua).
local function use_omnifunc(client, bufnr)
  local own = vim.bo[bufnr].omnifunc
  if own:find("^v:lua%.") == nil or own == "v:lua.vim.lsp.omnifunc" then -- empty, or a Vim runtime's
    vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
  end
  if vim.lsp.completion and vim.lsp.completion.enable then
    vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = false })
    local options = vim.split(vim.o.completeopt, ",", { trimempty = true })
    if not vim.tbl_contains(options, "menuone") then
      table.insert(options, "menuone")
      vim.bo[bufnr].completeopt = table.concat(options, ",")
    end
  end
end

local function on_catalog_changed(_, params, ctx)
  M.catalog[ctx.client_id] = params
  if M.config and M.config.on_catalog_changed then
    M.config.on_catalog_changed(params, ctx.client_id)
  end
  local event = { pattern = "AlbedoSkillsCatalogChanged", modeline = false }
  if vim.fn.has("nvim-0.8") == 1 then
    event.data = params
  end
  pcall(vim.api.nvim_exec_autocmds, "User", event)
end

local function client_config(root)
  local config = M.config
  local handlers = { [M.CATALOG_CHANGED] = on_catalog_changed }
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
    get_language_id = M.language_id,
    on_attach = function(client, bufnr)
      if config.omnifunc then
        use_omnifunc(client, bufnr)
      end
      require("albedo_skills.chat.gp").on_attach(bufnr)
      require("albedo_skills.inline").on_attach(client, bufnr)
      if config.mappings then
        M.set_mappings(bufnr)
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

local function any_client()
  for _, id in pairs(M.clients) do
    if live_client(id) then
      return id
    end
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

--- Attach the server to `bufnr` (starting a client when needed). Returns the client id, or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local settings = M.config.settings
  if vim.bo[bufnr].buftype ~= "" and not is_chat(bufnr, "", settings) then
    return nil -- a help or terminal buffer; chat plugins' scratch buffers (a chat filetype) are fine
  end
  local root, loose = M.placement(bufnr, settings)
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
  end
  return start(bufnr, root)
end

local function warn_when_missing(cmd)
  if type(cmd) == "table" and cmd[1] and vim.fn.executable(cmd[1]) == 0 then
    vim.notify(
      ("albedo_skills: %q is not an executable on PATH. Install the server (`pipx install .` in a clone of "
        .. "albedo-skills-ls) or set `cmd`; `:checkhealth albedo_skills` says more."):format(cmd[1]),
      vim.log.levels.WARN
    )
  end
end

function M.setup(opts)
  -- shallow on purpose: a deep merge would blend lists (cmd, root_markers) item by item
  M.config = vim.tbl_extend("force", vim.deepcopy(M.defaults), opts or {})
  warn_when_missing(M.config.cmd)
  M.create_commands()
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
  -- buffers already loaded before setup() ran
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and M.wanted(bufnr) then
      M.attach(bufnr)
    end
  end
  return M
end

-- --- Neovim 0.11+: vim.lsp.config / vim.lsp.enable (lsp/albedo_skills.lua returns this) --------------------

--- The `vim.lsp.config` entry. `root_dir` decides per buffer, because `filetypes = { "markdown" }` alone
--- would attach the server to every Markdown file; a chat buffer or user-root skill reuses a running client.
function M.lsp_config()
  return {
    cmd = M.DEFAULT_CMD,
    filetypes = vim.list_extend({ "markdown" }, vim.deepcopy(M.DEFAULT_CHAT_LANGUAGE_IDS)),
    root_dir = function(bufnr, on_dir)
      local settings = vim.lsp.config[M.name].settings
      if not M.wanted(bufnr, settings) then
        return
      end
      local root, loose = M.placement(bufnr, settings)
      local running = running_clients()[1]
      if loose and running then
        root = running.config.root_dir
      end
      on_dir(root)
    end,
    reuse_client = function(client, config)
      return client.name == config.name and client.config.root_dir == config.root_dir
    end,
    init_options = { albedoSkills = {} },
    settings = { albedoSkills = {} },
    handlers = { [M.CATALOG_CHANGED] = on_catalog_changed },
    get_language_id = M.language_id,
    on_attach = function(client, bufnr)
      use_omnifunc(client, bufnr)
      require("albedo_skills.chat.gp").on_attach(bufnr)
      require("albedo_skills.inline").on_attach(client, bufnr)
    end,
  }
end

--- 0.11's `vim.lsp.enable` skips buffers with a 'buftype' (it wants files), but chat plugins (CodeCompanion,
--- CopilotChat, Avante) make `nofile` scratch buffers: plugin/albedo_skills.lua calls this on FileType.
function M.attach_scratch(bufnr)
  if M.config or not (vim.lsp.is_enabled and vim.lsp.is_enabled(M.name)) then
    return nil -- setup() handles every buffer itself; without vim.lsp.enable there is nothing to do
  end
  if vim.bo[bufnr].buftype == "" or not M.wanted(bufnr) then
    return nil
  end
  local config = vim.deepcopy(vim.lsp.config[M.name])
  local root
  config.root_dir(bufnr, function(dir)
    root = dir
  end)
  config.root_dir = root
  config.name = M.name
  return vim.lsp.start(config, { bufnr = bufnr, reuse_client = config.reuse_client })
end

M.running_clients = running_clients

return M
