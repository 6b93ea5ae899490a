-- Loaded at startup by every plugin manager (and by 'runtimepath'/'packpath'): it only defines
-- `:AlbedoSkillsReload` and, for 0.11's vim.lsp.enable route, attaches chat plugins' scratch buffers.
-- Nothing starts until `require("albedo_skills").setup()` or `vim.lsp.enable("albedo_skills")`.
if vim.g.loaded_albedo_skills then
  return
end
vim.g.loaded_albedo_skills = true

require("albedo_skills").create_commands()

if vim.fn.has("nvim-0.11") == 1 then
  vim.api.nvim_create_autocmd("FileType", {
    group = vim.api.nvim_create_augroup("albedo_skills_scratch", { clear = true }),
    callback = function(args)
      require("albedo_skills").attach_scratch(args.buf)
    end,
  })
end
