import RulesTestSupport
import Foundation
import RulesTesting
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// JSON, JUnit and lcov output.
@Suite struct ReporterTests {
    static let spec = """
        rules: { rules: { a: { ".read": "auth != null", ".write": "auth != null && newData.isNumber()" } } }
        tests:
          - name: "reads <signed in> & \\"quoted\\""
            as: { uid: u }
            read: /a
            expect: allow
          - name: wrong one
            steps:
              - { as: { uid: u }, set: /a, value: x, expect: allow }
              - { as: { uid: u }, set: /a, value: 1, expect: allow }
          - name: also wrong
            read: /a
            expect: allow
        """

    /// Counts what an XML parser sees.
    final class Counter: NSObject, XMLParserDelegate {
        var testcases = 0, failures = 0
        var suitesAttributes: [String: String] = [:]
        var names: [String] = []
        var failureText = ""
        var inFailure = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            switch name {
            case "testsuites": suitesAttributes = attributes
            case "testcase": testcases += 1; names.append(attributes["name"] ?? "")
            case "failure": failures += 1; inFailure = true
            default: break
            }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "failure" { inFailure = false }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inFailure { failureText += string }
        }
    }

    @Test func junitIsWellFormedWithMatchingCounts() throws {
        let (output, dir) = try SpecFixture.run(["r.test.yaml": Self.spec]) { options, dir in
            options.junitPath = dir.appendingPathComponent("junit.xml").path
        }
        defer { dir.remove() }
        #expect(output.exitCode == 1)
        let data = try Data(contentsOf: dir.file("junit.xml"))
        let parser = XMLParser(data: data)
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.testcases == 3)
        #expect(counter.failures == 2)
        #expect(counter.suitesAttributes["tests"] == "3")
        #expect(counter.suitesAttributes["failures"] == "2")
        #expect(counter.names.first == "reads <signed in> & \"quoted\"")
        #expect(counter.failureText.contains("deciding rule: /a/.write"))
        #expect(counter.failureText.contains("newData.isNumber()"))
    }

    @Test func junitEscapesEveryMarkupCharacter() {
        #expect(JUnitReporter.escape("a<b>&\"c'\u{1}") == "a&lt;b&gt;&amp;&quot;c&apos;")
    }

    @Test func jsonFormatHasOneEntryPerStep() throws {
        let output = try SpecFixture.output(["r.test.yaml": Self.spec]) { options, _ in options.format = .json }
        #expect(output.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 2)
        #expect(object["failed"] as? Int == 2)
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.count == 4)
        #expect(tests.map { $0["step"] as? Int } == [1, 1, 2, 1])
        #expect(tests.map { $0["passed"] as? Bool } == [true, false, true, false])
        #expect(tests[1]["expected"] as? String == "allow")
        #expect(tests[1]["actual"] as? String == "deny")
        #expect((tests[1]["explanation"] as? String)?.contains("/a/.write") == true)
        #expect(tests[0]["explanation"] == nil)
        #expect((tests[0]["file"] as? String)?.hasSuffix("r.test.yaml") == true)
    }

    /// A step's reason is written out when read, for passing steps too, and can be replaced.
    @Test func stepReasonsAreTheEnginesAndCanBeSet() throws {
        let spec = """
            rules: { rules: { a: { ".write": "auth != null" } } }
            tests:
              - name: denied as expected
                set: /a
                value: 1
                expect: deny
              - name: allowed
                as: { uid: u }
                set: /a
                value: 1
                expect: allow
            """
        let (output, dir) = try SpecFixture.run(["r.test.yaml": spec])
        defer { dir.remove() }
        #expect(output.exitCode == 0)
        #expect(output.loaded != nil)
        let steps = try #require(output.result?.tests.map { $0.steps[0] })
        #expect(steps.map(\.reason) == ["no .write rule on /a or above it granted the write", nil])
        #expect(steps.map(\.description) == ["set /a as unauthenticated", "set /a as uid u"])
        var step = steps[0]
        step.reason = "replaced"
        #expect(step.reason == "replaced")
        step.reason = nil
        #expect(step.reason == nil)
        let made = StepResult(index: 1, description: "d", expectedAllow: true, actualAllow: false, reason: "given", explanation: nil)
        #expect(made.reason == "given")
        #expect(made.description == "d")
        step.description = "described"
        #expect(step.description == "described")
    }

    @Test func lcovListsRuleLinesAndBranches() throws {
        let (output, dir) = try SpecFixture.run([
            "r.test.yaml": "rules: db.rules.json\ntests:\n  - { as: { uid: u }, set: /a, value: 1, expect: allow }\n",
            "db.rules.json": """
                {
                  "rules": {
                    "a": {
                      ".read": "auth != null",
                      ".write": "auth != null && newData.isNumber()"
                    }
                  }
                }
                """,
        ], paths: ["r.test.yaml"]) { options, dir in
            options.coverageLCOVPath = dir.appendingPathComponent("cov.info").path
        }
        defer { dir.remove() }
        #expect(output.exitCode == 0)
        let lcov = try String(contentsOf: dir.file("cov.info"), encoding: .utf8)
        let lines = lcov.split(separator: "\n").map(String.init)
        #expect(lines.first == "TN:")
        #expect(lines[1] == "SF:\(dir.path)/db.rules.json")
        #expect(lines.last == "end_of_record")
        // .read (line 4) never ran: its branches are "-"; .write (line 5) ran once and was true.
        #expect(lines.contains("DA:4,0"))
        #expect(lines.contains("DA:5,1"))
        #expect(lines.contains("BRDA:4,0,0,-"))
        #expect(lines.contains("BRDA:5,1,0,1"))   // the rule was true once
        #expect(lines.contains("BRDA:5,1,1,0"))   // and never false
        #expect(lines.contains("BRDA:5,1,2,1"))   // auth != null: true once
        #expect(lines.contains("LF:2"))
        #expect(lines.contains("LH:1"))
        let brda = lines.filter { $0.hasPrefix("BRDA:") }
        #expect(lines.contains("BRF:\(brda.count)"))
        #expect(lines.contains("BRH:\(brda.filter { !$0.hasSuffix(",-") && !$0.hasSuffix(",0") }.count)"))
    }
}
