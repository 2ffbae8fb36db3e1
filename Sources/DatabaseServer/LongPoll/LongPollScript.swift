/// The bodies long polling answers with. The SDK loads every `/.lp` request as a script in a
/// hidden iframe of the page; an answer calls the page's `pLPCommand<cb>` (commands: `start`,
/// `close`) and `pRTLPCB<cb>` (numbered packets of protocol messages) through two helpers that
/// the start answer defines in the iframe, so later answers (and those after a restart of the
/// server, which no longer knows the session) call them by their short names.
enum LongPollScript {
    /// The start answer: the helpers, `start` with the id and password of the session, and
    /// packet 0 holding the handshake. `callback` is digits only (checked by the caller).
    static func start(callback: String, id: String, password: String, handshake: String) -> String {
        #"function pLPCommand(c,a1,a2,a3,a4){var f=parent.window["pLPCommand\#(callback)"];if(f)f(c,a1,a2,a3,a4);}"# + "\n"
            + #"function pRTLPCB(pN,data){var f=parent.window["pRTLPCB\#(callback)"];if(f)f(pN,data);}"# + "\n"
            + "pLPCommand('start','\(id)','\(password)');\n"
            + packet(0, [handshake])
    }

    /// `pRTLPCB(n,[m1,m2,…]);`: packet `number` with whole messages (JSON the server wrote).
    static func packet(_ number: Int, _ messages: [String]) -> String {
        var body = "pRTLPCB(\(number),["
        for (index, message) in messages.enumerated() {
            if index > 0 { body += "," }
            body += scriptSafe(message)
        }
        return body + "]);\n"
    }

    /// `pLPCommand('close');`: the session is over (the SDK reconnects), or, with the number of
    /// the packet holding the server's `n`, the transport is left for the WebSocket once that
    /// packet is processed.
    static func close(afterPacket number: Int? = nil) -> String {
        guard let number else { return "pLPCommand('close');\n" }
        return "pLPCommand('close',\(number));\n"
    }

    /// An answer for a request that cannot be served: a comment with the reason, so that the
    /// script loads and does nothing. The reason is cut down to printable ASCII first (anything
    /// else becomes `?`), then every `*/` is broken: working on characters, a `*/` followed by a
    /// combining mark would be one character and survive, and close the comment early.
    static func comment(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let safe = (0x20...0x7E).contains(scalar.value) ? scalar : "?"
            if safe == "/", scalars.last == "*" { scalars.append(" ") }
            scalars.append(safe)
        }
        if scalars.last == "*" { scalars.append(" ") }
        return "/* rules serve: " + String(scalars) + " */\n"
    }

    /// JSON as script source: U+2028 and U+2029 escaped (older engines end a string at them).
    static func scriptSafe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value == 0x2028 || $0.value == 0x2029 }) else { return json }
        return json.replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
    }

    /// The disconnect frame (`/.lp?dframe=t&id&pw`): a page that the SDK loads in a hidden
    /// iframe and removes when the transport shuts down (going offline, leaving the page). Its
    /// `pagehide` handler tells the server at once with a keepalive `fetch` (Chromium refuses a
    /// synchronous request during unload). `id` and `password` are the server's own.
    static func disconnectFrame(id: String, password: String, namespace: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>rules serve</title></head><body><script>
        function gone(){try{fetch("/.lp?disconn=t&id=\(id)&pw=\(password)&ns=\(namespace)",{keepalive:true,cache:"no-store"})}catch(e){}}
        addEventListener("pagehide",gone);
        </script></body></html>

        """
    }
}
