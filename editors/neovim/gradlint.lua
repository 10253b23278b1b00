-- One gradlint language server for the session, attached to every C, C++ and
-- CUDA buffer (Neovim 0.7 or later: no vim.fs or vim.lsp.start needed).
local gradlint_client

local function project_root(dir)
  local commands = vim.fn.findfile("compile_commands.json", dir .. ";")
  if commands ~= "" then return vim.fn.fnamemodify(commands, ":p:h") end
  local git = vim.fn.finddir(".git", dir .. ";")
  if git ~= "" then return vim.fn.fnamemodify(git, ":p:h:h") end
  return dir
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "c", "cpp", "cuda" },
  callback = function(args)
    local file = vim.api.nvim_buf_get_name(args.buf)
    if file == "" or vim.bo[args.buf].buftype ~= "" then return end
    if not (gradlint_client and vim.lsp.get_client_by_id(gradlint_client)) then
      gradlint_client = vim.lsp.start_client({
        name = "gradlint",
        cmd = { "gradlint", "lsp" },  -- or the full path of gradlint
        root_dir = project_root(vim.fn.fnamemodify(file, ":p:h")),
        init_options = { debounceMs = 300 },
      })
    end
    if gradlint_client then vim.lsp.buf_attach_client(args.buf, gradlint_client) end
  end,
})
