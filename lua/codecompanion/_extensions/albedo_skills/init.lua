-- The CodeCompanion extension `albedo_skills`: CodeCompanion resolves `extensions = { albedo_skills = {...} }`
-- in its setup() to this file on 'runtimepath' and calls setup(opts) with that entry's `opts`. The work is in
-- lua/albedo_skills/chat/codecompanion.lua; `:help albedo_skills-codecompanion` has the options.
local integration = require("albedo_skills.chat.codecompanion")

return {
  setup = integration.setup,
  exports = {
    refresh = integration.refresh, -- rebuild the skills in CodeCompanion's `/` menu now
  },
}
