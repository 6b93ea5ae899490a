-- Neovim 0.11+: `vim.lsp.enable("albedo_skills")` reads this file from 'runtimepath'. Override any field with
-- `vim.lsp.config("albedo_skills", { cmd = ..., settings = { albedoSkills = { ... } } })`.
return require("albedo_skills").lsp_config()
