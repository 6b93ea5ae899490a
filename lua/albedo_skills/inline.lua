-- What the server shows inline, in the buffers it attaches to: code lenses (on a SKILL.md's `name:`, "used in
-- N places" and the agents that load it) and inlay hints (after `description:`, its length and the agents'
-- cuts). Each only when the server offers it, which it does to clients that declare it (Neovim 0.7 declares
-- neither; 0.11 both) and unless `albedoSkills.codeLens` / `albedoSkills.inlayHints` is false.
local M = {}

M.SHOW_REFERENCES = "albedoSkills.showReferences"

--- The lens "used in N places" runs this client-side command with (uri, position of the name): the cursor
--- goes to the name and `vim.lsp.buf.references()` lists the places in the quickfix list.
function M.show_references(command)
  local uri, position = command.arguments[1], command.arguments[2]
  local bufnr = vim.uri_to_bufnr(uri)
  vim.api.nvim_win_set_buf(0, bufnr)
  local line = vim.api.nvim_buf_get_lines(bufnr, position.line, position.line + 1, false)[1] or ""
  local column = vim.str_byteindex(line, position.character, true) -- the server counts UTF-16 by default
  vim.api.nvim_win_set_cursor(0, { position.line + 1, column })
  vim.lsp.buf.references()
end

function M.on_attach(client, bufnr)
  vim.lsp.commands[M.SHOW_REFERENCES] = M.show_references
  local capabilities = client.server_capabilities or {}
  if capabilities.codeLensProvider and vim.lsp.codelens then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "BufWritePost" }, {
      buffer = bufnr,
      group = vim.api.nvim_create_augroup("albedo_skills_lens_" .. bufnr, { clear = true }),
      callback = function()
        vim.lsp.codelens.refresh({ bufnr = bufnr })
      end,
    })
  end
  if capabilities.inlayHintProvider and vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  end
end

return M
