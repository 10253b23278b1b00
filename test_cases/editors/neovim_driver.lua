-- Run in the buffer of the file under test once the configuration has been
-- sourced: waits for gradlint's diagnostics, asks for code actions at the
-- first one, and writes what it saw as JSON to vim.g.result_file.
local result = { clients = {}, diagnostics = {}, actions = {}, version = vim.version() }
local buffer = vim.api.nvim_get_current_buf()
result.filetype = vim.bo[buffer].filetype

local function attached_clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = buffer }) end
  return vim.lsp.buf_get_clients(buffer)
end

local function gradlint_diagnostics()
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
    if diagnostic.source == "gradlint" or diagnostic.code then table.insert(found, diagnostic) end
  end
  return found
end

-- A client counts as attached once it has answered initialize.
result.attached = vim.wait(20000, function() return #attached_clients() > 0 end, 50)
for _, client in pairs(attached_clients()) do table.insert(result.clients, client.name) end
-- Without an attached client nothing can come: no need to wait longer.
if #result.clients > 0 then
  result.waited = vim.wait(tonumber(vim.g.wait_ms), function() return #gradlint_diagnostics() > 0 end, 100)
end
for _, diagnostic in ipairs(gradlint_diagnostics()) do
  table.insert(result.diagnostics, { code = diagnostic.code, lnum = diagnostic.lnum,
                                     col = diagnostic.col, source = diagnostic.source,
                                     message = diagnostic.message })
end

local first = gradlint_diagnostics()[1]
if first then
  -- The file is ASCII, so byte columns are UTF-16 positions.
  local range = { start = { line = first.lnum, character = first.col },
                  ["end"] = { line = first.end_lnum, character = first.end_col } }
  local responses = vim.lsp.buf_request_sync(buffer, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buffer) },
    range = range,
    context = { diagnostics = { { range = range, message = first.message, code = first.code,
                                  source = first.source, severity = 2 } } },
  }, 30000)
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(result.actions, { title = action.title, kind = action.kind,
                                     has_edit = action.edit ~= nil })
    end
  end
end

result.messages = vim.api.nvim_exec("messages", true)
vim.fn.writefile({ vim.fn.json_encode(result) }, vim.g.result_file)
vim.cmd("qall!")
