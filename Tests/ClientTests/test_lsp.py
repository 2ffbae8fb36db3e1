"""`rules lsp` driven by real LSP clients: pygls's client (diagnostics while typing, hover,
completion, go to definition, a quick fix) and headless Neovim (the same diagnostics)."""
import asyncio
import os
import shutil
import subprocess
import tempfile

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from conftest import BINARY, REPO

# The name line has characters of 2, 3 and 4 UTF-8 bytes (1, 1 and 2 UTF-16 units) before the
# expression, so a wrong column conversion shows up as a wrong range.
RULES = """{
  "rules": {
    "users": {
      "$uid": {
        ".read": "auth != null && auth.uid === $uid",
        ".write": "auth != null && auth.uid === $uid",
        ".validate": "newData.hasChildren(['name'])",
        "name": { ".validate": "newData.val() !== 'é中😀' && newData.isString()" },
        "$other": { ".validate": false }
      }
    },
    "scores": {
      ".read": "auth != null && query.orderByChild === 'points'",
      "$id": { ".write": "auth != null && !data.exists()", ".validate": "newData.isNumber()" }
    },
    "notes": { "$uid": { ".write": "auth.uid === $uid" } }
  }
}
"""
NAME_LINE = 7
URI_NAME = "database.rules.json"


def utf16_column(line, text):
    """The UTF-16 column of the first `text` on a line of RULES."""
    prefix = RULES.split("\n")[line].split(text)[0]
    return len(prefix.encode("utf-16-le")) // 2


class RulesClient(LanguageClient):
    def __init__(self):
        super().__init__("rules-e2e", "1")
        self.published = {}
        self.arrived = asyncio.Condition()

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(ls, params):
            async with ls.arrived:
                ls.published[params.uri] = params
                ls.arrived.notify_all()

    async def diagnostics(self, uri, version, timeout=30, where=lambda diagnostics: True):
        """The diagnostics published for `version` of the document (the first publication that
        `where` accepts: the compiler's and the static lints' come at once, the access model's
        findings, with their witnesses, in a later publication for the same version)."""
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: uri in self.published and self.published[uri].version == version
                                      and where(self.published[uri].diagnostics)), timeout)
            return self.published[uri].diagnostics


def apply_edits(text, edits):
    """The text with LSP text edits applied (ranges in UTF-16 units, as sent)."""
    lines = text.split("\n")

    def offset(pos):
        before = "\n".join(lines[:pos.line]) + ("\n" if pos.line else "")
        line = lines[pos.line].encode("utf-16-le")[: pos.character * 2].decode("utf-16-le")
        return len(before) + len(line)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


async def session(tmp):
    path = os.path.join(tmp, URI_NAME)
    with open(path, "w") as f:
        f.write(RULES)
    uri = "file://" + path
    client = RulesClient()
    await client.start_io(BINARY, "lsp")
    try:
        result = await client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), process_id=os.getpid(), root_uri="file://" + tmp))
        assert result.capabilities.text_document_sync.change == lsp.TextDocumentSyncKind.Incremental
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="json", version=1, text=RULES)))
        first = await client.diagnostics(uri, 1, where=lambda ds: any(d.code == "unvalidated-write" and d.related_information for d in ds))
        assert [d.code for d in first if d.severity == lsp.DiagnosticSeverity.Error] == []
        lint = [d for d in first if d.code == "query-without-index"]
        assert len(lint) == 1, first
        # A security lint's witness, one line per related information.
        unvalidated = next(d for d in first if d.code == "unvalidated-write")
        witness = [r.message for r in unvalidated.related_information]
        assert witness[0].startswith("witness (confirmed): as the owner"), witness
        assert witness[1].startswith("1. set /notes/"), witness

        # Type an error: isString() becomes isStrin().
        column = utf16_column(NAME_LINE, "isString") + len("isStrin")
        pos = lsp.Position(line=NAME_LINE, character=column)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=pos, end=lsp.Position(line=NAME_LINE, character=column + 1)), text="")]))
        errors = [d for d in await client.diagnostics(uri, 2) if d.severity == lsp.DiagnosticSeverity.Error]
        assert len(errors) == 1, errors
        start = utf16_column(NAME_LINE, "isString")
        assert errors[0].range.start == lsp.Position(line=NAME_LINE, character=start), errors[0]
        assert errors[0].range.end == lsp.Position(line=NAME_LINE, character=start + len("isStrin")), errors[0]

        # Fix it: the error clears.
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=pos, end=pos), text="g")]))
        assert [d for d in await client.diagnostics(uri, 3) if d.severity == lsp.DiagnosticSeverity.Error] == []

        # Hover on $uid in the .read expression: what it binds.
        read_line = 4
        hover = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=read_line, character=utf16_column(read_line, "$uid") + 1)))
        assert "segment 2 of `/users/$uid`" in hover.contents.value, hover.contents.value

        # Go to the definition of $uid: its key.
        definition = await client.text_document_definition_async(lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=read_line, character=utf16_column(read_line, "$uid") + 2)))
        location = definition[0] if isinstance(definition, list) else definition
        assert location.range.start == lsp.Position(line=3, character=utf16_column(3, '"$uid"')), location

        # Completion after `auth.`: type it at the start of the .write expression.
        write_line = 5
        at = lsp.Position(line=write_line, character=utf16_column(write_line, "auth != null"))
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=4),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=at, end=at), text="auth.")]))
        completion = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=write_line, character=at.character + len("auth."))))
        items = completion.items if hasattr(completion, "items") else completion
        assert {"uid", "token", "provider"} <= {i.label for i in items}, items
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=5),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=RULES)]))
        await client.diagnostics(uri, 5)

        # The quick fix for the missing index, applied: the lint is gone.
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), range=lint[0].range,
            context=lsp.CodeActionContext(diagnostics=lint)))
        fix = next(a for a in actions if a.title.startswith("Add \"points\" to .indexOn"))
        fixed = apply_edits(RULES, fix.edit.changes[uri])
        assert '".indexOn": ["points"]' in fixed, fixed
        assert any(a.title == "Suppress query-without-index on this line" for a in actions), actions
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=6),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
        assert [d for d in await client.diagnostics(uri, 6) if d.code == "query-without-index"] == []

        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()


def test_a_client_sees_diagnostics_hover_completion_definition_and_a_quick_fix():
    with tempfile.TemporaryDirectory(prefix="rules-lsp-") as tmp:
        asyncio.run(asyncio.wait_for(session(tmp), 120))


def test_neovim_gets_the_same_diagnostics():
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (CI installs Debian's neovim package; locally: apt-get install neovim)")
    broken = RULES.replace("isString()", "isStrin()")
    with tempfile.TemporaryDirectory(prefix="rules-lsp-nvim-") as tmp:
        path = os.path.join(tmp, URI_NAME)
        out = os.path.join(tmp, "diagnostics.txt")
        with open(path, "w") as f:
            f.write(broken)
        script = os.path.join(REPO, "Tests", "ClientTests", "nvim_diagnostics.lua")
        env = dict(os.environ, RULES_BINARY=os.path.abspath(BINARY), RULES_LSP_OUT=out, HOME=tmp, XDG_STATE_HOME=tmp)
        subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}", path],
                       env=env, cwd=tmp, timeout=60, check=True, stdin=subprocess.DEVNULL, capture_output=True)
        with open(out) as f:
            lines = f.read().splitlines()
    # Neovim keeps byte columns: the error starts where `isStrin` starts in the line's UTF-8.
    line = broken.split("\n")[NAME_LINE]
    start = len(line.split("isStrin")[0].encode())
    errors = [l for l in lines if " 1 " in l]
    assert len(errors) == 1, lines
    assert errors[0].startswith(f"{NAME_LINE}:{start}-{NAME_LINE}:{start + len('isStrin')} 1 "), lines
