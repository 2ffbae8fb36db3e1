import CMallocCounter
import Foundation
import RulesBenchmark

// `rules-profile`: the benchmark suite of `rules bench --suite` in a small executable that
// links no network or storage code, for running under valgrind (callgrind cannot start the
// full `rules` binary). It takes the suite's options only:
//
//   rules-profile [--filter TEXT] [--sizes N,N] [--iterations N] [--rounds N] [--quick]
//                 [--corpus DIR] [--blog-rules FILE] [--format text|json]
//
// Everything it measures is also what `rules bench --suite` measures, and allocations besides:
// it links the counting allocator (CMallocCounter), which `rules` does not.

@main
enum RulesProfile {
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("rules-profile: \(message)\n".utf8))
        exit(2)
    }

    static func main() {
        AllocationCounter.install { rules_malloc_count() }
        var options = BenchCLIOptions(paths: [])
        options.suite = true
        options.corpusPath = nil
        var arguments = CommandLine.arguments.dropFirst()[...]
        func value(of flag: String) -> String {
            guard let v = arguments.popFirst() else { fail("\(flag) needs a value") }
            return v
        }
        func number(of flag: String) -> Int {
            let text = value(of: flag)
            guard let n = Int(text), n > 0 else { fail("\(flag) needs a positive whole number, not '\(text)'") }
            return n
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--filter": options.filter = value(of: argument)
            case "--sizes":
                let text = value(of: argument)
                let sizes = text.split(separator: ",").map { Int($0) }
                guard !sizes.isEmpty, !sizes.contains(nil) else { fail("--sizes needs numbers separated by commas, not '\(text)'") }
                options.sizes = sizes.compactMap { $0 }
            case "--iterations": options.iterations = number(of: argument)
            case "--rounds": options.rounds = number(of: argument)
            case "--quick": options.quick = true
            case "--corpus": options.corpusPath = value(of: argument)
            case "--blog-rules": options.blogRulesPath = value(of: argument)
            case "--format":
                let text = value(of: argument)
                guard let format = BenchOutputFormat(rawValue: text) else { fail("--format is text or json, not '\(text)'") }
                options.format = format
            case "-h", "--help":
                print("usage: rules-profile [--filter TEXT] [--sizes N,N] [--iterations N] [--rounds N] [--quick] [--corpus DIR] [--blog-rules FILE] [--format text|json]")
                exit(0)
            default: fail("unknown argument '\(argument)' (see --help)")
            }
        }

        let output = BenchCLI.run(options) { _ in }
        print(output.stdout, terminator: "")
        if !output.stderr.isEmpty { FileHandle.standardError.write(Data(output.stderr.utf8)) }
        exit(output.exitCode)
    }
}
