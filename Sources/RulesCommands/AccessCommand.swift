import ArgumentParser
import Foundation
import RulesLint

/// `rules access FILE`: who may do what, where, as the engine decides it.
package struct AccessCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Show who may do what, where: the access model of a rules file, each \"allowed\" proven by a witness the engine ran.",
        discussion: """
            Rows are locations and operations (read; create, update, delete of a record; write of a \
            collection or other location); columns are principals: anonymous, a signed-in stranger, \
            the owner, a holder of each privilege the data grants (role:N) and of each custom claim \
            (claim:NAME), and a user the rules name by uid or token (named). A cell is yes (a witness the \
            engine allowed), never (the solver proved that no request within its bounds is allowed), \
            unknown (neither was shown in time), if role / if claim / if named, or escalation (a \
            stranger gives himself a privilege with allowed writes, then is allowed). \
            See docs/access.md.
            """
    )

    package enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    @Argument(help: "The rules file.")
    package var path: String

    @Option(help: "Output format: text, json or markdown.")
    package var format: Format = .text

    @Flag(help: "Show the witness of every allowed cell.")
    package var witnesses = false

    @Option(name: .customLong("path"), help: "Only locations under this path pattern, e.g. /users/$uid.")
    package var pathPrefix: String?

    @Option(name: .customLong("as"), help: "Only this principal: anonymous, stranger, owner, role:N, claim:NAME.")
    package var principal: String?

    @OptionGroup(title: "Solver")
    package var solver: SolverOptions

    package init() {}

    package func run() throws {
        let input = try AccessInput.load(path)
        let model = AccessModel.build(rules: input.rules, tree: input.tree, solver: solver.budget)
        let table = AccessTable(model: model, pathPrefix: pathPrefix, principal: principal, witnesses: witnesses)
        if let principal, table.principals.isEmpty {
            let known = model.principals.map { table.short($0) }.joined(separator: ", ")
            throw ValidationError("no principal '\(principal)' in this file's model; it has: \(known)")
        }
        switch format {
        case .text: print(table.text(), terminator: "")
        case .markdown: print(table.markdown(), terminator: "")
        case .json: print(table.json().rendered())
        }
    }
}
