-- Neovim (headless) as an LSP client of `rules lsp`: opens the file given on the command line,
-- starts the server on it, waits for its diagnostics and writes them to $RULES_LSP_OUT, one per
-- line as `line:col-end_line:end_col severity code message` (0-based lines, byte columns as
-- Neovim keeps them), then quits. Run as:
--   RULES_BINARY=... RULES_LSP_OUT=out.txt nvim --headless -u NONE -c 'luafile nvim_diagnostics.lua' FILE
local binary = os.getenv('RULES_BINARY')
local out_path = os.getenv('RULES_LSP_OUT')
local buf = vim.api.nvim_get_current_buf()
local file = vim.api.nvim_buf_get_name(buf)
local config = { name = 'rules', cmd = { binary, 'lsp' }, root_dir = vim.fn.fnamemodify(file, ':h') }

local function finish(lines)
  local f = assert(io.open(out_path, 'w'))
  for _, line in ipairs(lines) do f:write(line, '\n') end
  f:close()
  vim.cmd('qa!')
end

if vim.lsp.start then
  vim.lsp.start(config)
else
  -- Neovim before 0.8: start the client, then attach it to the buffer.
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, id)
end

local arrived = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not arrived then finish({ 'timeout: no diagnostics within 20 s' }) return end
local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  table.insert(lines, string.format('%d:%d-%d:%d %d %s %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, code, d.message))
end
table.sort(lines)
finish(lines)
