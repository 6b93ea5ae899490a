-- `:checkhealth albedo_skills`: is the server there, which version, which route, which roots.
local M = {}

-- 0.10+ has vim.health.start/ok/...; 0.8-0.9 vim.health.report_*; 0.7 only the Vimscript health#report_*
local report = {}
for _, kind in ipairs({ "start", "ok", "info", "warn", "error" }) do
  report[kind] = function(message)
    local health = vim.health or {}
    local fn = health[kind] or health["report_" .. kind]
    if fn then
      return fn(message)
    end
    return vim.fn["health#report_" .. kind](message)
  end
end

function M.check()
  local albedo = require("albedo_skills")
  report.start("albedo_skills")
  local nvim = vim.version()
  local version = ("%d.%d.%d"):format(nvim.major, nvim.minor, nvim.patch)
  if vim.fn.has("nvim-0.7") == 1 then
    report.ok("Neovim " .. version)
  else
    report.error("Neovim " .. version .. ": albedo_skills needs 0.7 or later")
  end

  local cmd, route
  if albedo.config then
    cmd, route = albedo.config.cmd, "require('albedo_skills').setup()"
  elseif vim.lsp.is_enabled and vim.lsp.is_enabled(albedo.name) then
    cmd, route = vim.lsp.config[albedo.name].cmd, "vim.lsp.enable('albedo_skills')"
  else
    cmd = albedo.DEFAULT_CMD
    report.warn("not set up: call require('albedo_skills').setup() (or vim.lsp.enable('albedo_skills') on 0.11+)")
  end
  if route then
    report.ok("set up through " .. route)
  end

  local program = type(cmd) == "table" and cmd[1] or nil
  local path = program and vim.fn.exepath(program) or ""
  if path == "" then
    report.error(
      ("server command %s not found on PATH. Install it with `pipx install .` in a clone of albedo-skills-ls "
        .. "(pipx puts it in ~/.local/bin: make sure that is on PATH), or set `cmd` to a full path"):format(
        vim.inspect(program)
      )
    )
  else
    local args = { path }
    for index = 2, #cmd do
      table.insert(args, cmd[index])
    end
    table.insert(args, "--version")
    local output = vim.fn.system(args)
    if vim.v.shell_error == 0 then
      report.ok(("server %s: %s"):format(path, vim.trim(output)))
    else
      report.error(("`%s` failed (exit %d): %s"):format(table.concat(args, " "), vim.v.shell_error, vim.trim(output)))
    end
  end

  local clients = albedo.running_clients()
  if #clients == 0 then
    report.info("no server running: open a SKILL.md or a chat buffer")
  end
  for _, client in ipairs(clients) do
    local catalog = albedo.catalog[client.id]
    local summary = catalog and ("%d skills, %d diagnostics"):format(catalog.skills or 0, catalog.diagnostics or 0)
      or "no catalog announced yet"
    report.ok(("client %d, root %s: %s"):format(client.id, client.config.root_dir or "(user roots only)", summary))
  end
end

return M
