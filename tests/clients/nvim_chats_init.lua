-- init.lua of the Neovim that tests/clients/test_nvim_chats.py drives by keystrokes in tmux: the real pinned
-- chat plugins (CodeCompanion + plenary, gp.nvim) set up the way their READMEs and ours say, each pointed at
-- the fake OpenAI-compatible model on 127.0.0.1. Parameters come as JSON in the file named by
-- $ALBEDO_NVIM_PARAMS: repo, plugins (name -> folder), chat ("codecompanion" | "gp"), cmd, model_url,
-- decorator_tag (the user's own prompt_decorator wraps each turn in it). The probe the test reads state
-- through (nvim --server SOCKET --remote-expr) is tests/clients/nvim_chats_probe.lua.

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.ALBEDO_NVIM_PARAMS), "\n"))

vim.opt.rtp:prepend(P.repo)
for _, folder in pairs(P.plugins) do
  vim.opt.rtp:prepend(folder)
end
vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. "I"
vim.o.completeopt = "menuone,noinsert"

require("albedo_skills").setup({ cmd = P.cmd })

if P.chat == "codecompanion" then
  local tag = P.decorator_tag
  require("codecompanion").setup({
    adapters = {
      http = {
        fake = function()
          return require("codecompanion.adapters").extend("openai_compatible", {
            name = "fake",
            env = { url = P.model_url, api_key = "not-a-key", chat_url = "/v1/chat/completions" },
            schema = { model = { default = "fake-model" } },
          })
        end,
      },
    },
    interactions = {
      chat = {
        adapter = "fake",
        opts = {
          completion_provider = "default",
          -- the person's own decorator: it must still run, on what our extension made of the turn
          prompt_decorator = function(message)
            return ("<%s>%s</%s>"):format(tag, message, tag)
          end,
        },
      },
    },
    display = {
      chat = { window = { layout = "buffer" }, show_settings = false },
      -- CodeCompanion's own markdown prompts need a `yaml` treesitter parser, which Neovim does not bundle
      action_palette = { opts = { show_preset_prompts = false } },
    },
    extensions = { albedo_skills = { opts = {} } },
  })
elseif P.chat == "gp" then
  require("gp").setup({
    providers = {
      openai = { disable = true },
      fake = { endpoint = P.model_url .. "/v1/chat/completions", secret = "not-a-key" },
    },
    agents = {
      {
        name = "FakeChat",
        provider = "fake",
        chat = true,
        command = false,
        model = { model = "fake-model" },
        system_prompt = "You are a test.",
      },
    },
    default_chat_agent = "FakeChat",
    chat_confirm_delete = false,
  })
end

dofile(P.probe)
