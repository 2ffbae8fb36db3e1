/// The requests about a document's content.
enum Feature: String {
    case hover = "textDocument/hover"
    case completion = "textDocument/completion"
    case definition = "textDocument/definition"
    case documentSymbol = "textDocument/documentSymbol"
    case codeAction = "textDocument/codeAction"
    case formatting = "textDocument/formatting"
}
