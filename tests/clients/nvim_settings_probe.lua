-- Headless Neovim for tests/clients/test_settings_sent.py: start albedo-skills-ls for one SKILL.md by one
-- of the plugin's two routes (setup() or 0.11's vim.lsp.enable), with the settings the test gives (none:
-- the plugin left as installed), wait until the server's diagnostics arrive (it asks for the settings
-- before it discovers), then stop the client and quit. The server runs behind tests/clients/lsp_tap.py,
-- which records what Neovim sent. Parameters: JSON in the file named by $ALBEDO_PROBE_PARAMS:
--   route ("setup" | "native"), cmd, settings (the albedoSkills table, absent when untouched), file, out,
--   guard_ms

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.ALBEDO_PROBE_PARAMS), "\n"))
local result = {}

local function start()
  local albedo = require("albedo_skills")
  local options = { cmd = P.cmd }
  if P.settings ~= nil then
    options.settings = { albedoSkills = P.settings }
  end
  if P.route == "setup" then
    albedo.setup(options)
  else
    vim.lsp.config("albedo_skills", options)
    vim.lsp.enable("albedo_skills")
  end
  vim.cmd("edit " .. vim.fn.fnameescape(P.file))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  result.diagnosed = vim.wait(P.guard_ms, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  for _, client in ipairs(vim.lsp.get_clients()) do
    client:stop()
  end
  result.stopped = vim.wait(P.guard_ms, function()
    return #vim.lsp.get_clients() == 0
  end, 20)
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(start, debug.traceback)
      if not ok then
        result.error = tostring(err)
      end
      vim.fn.writefile({ vim.json.encode(result) }, P.out)
      vim.cmd("qa!")
    end)
  end,
})
