import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import RulesCoverage
import RulesTestSupport
import Testing

@testable import RulesTesting

/// The spec fields that assert data and reasons, shared fixtures, skip/only, and the reports'
/// file, line, version and load-error entries.
@Suite struct SpecFieldsTests {
    static let rules = #"rules: { rules: { posts: { "$id": { ".read": "auth != null", ".write": "auth != null && (!data.exists() || data.child('owner').val() === auth.uid)", ".validate": "newData.hasChildren(['owner', 'title'])" } } } }"#

    static let header = rules + """

        auth:
          alice: { uid: alice }
          bob: { uid: bob }
        data:
          posts: { p1: { owner: alice, title: Hello } }

        """

    private func run(_ body: String, extra: [String: String] = [:], configure: (inout TestCLIOptions, URL) -> Void = { _, _ in }) throws -> TestCLIOutput {
        var files = extra
        files["s.test.yaml"] = Self.header + body
        return try SpecFixture.output(files, paths: ["s.test.yaml"], configure: configure)
    }

    @Test func expectDataAndExpectValueCheckTheTree() throws {
        let ok = try run("""
            tests:
              - name: alice retitles her post
                steps:
                  - { as: alice, read: /posts/p1/title, expect: allow, expectValue: Hello }
                  - { as: alice, set: /posts/p1/title, value: Bye, expect: allow, expectData: { /posts/p1/title: Bye } }
                  - { as: bob, set: /posts/p1/title, value: Mine, expect: deny, expectData: { /posts/p1: { owner: alice, title: Bye } } }
                  - { as: alice, read: /posts/p1, expect: allow, expectValue: { title: Bye, owner: alice } }
            """)
        #expect(ok.exitCode == 0, "\(ok.stdout)\(ok.stderr)")
        let bad = try run("""
            tests:
              - name: wrong values
                steps:
                  - { as: alice, read: /posts/p1/title, expect: allow, expectValue: Goodbye }
                  - { as: alice, set: /posts/p1/title, value: Bye, expect: allow, expectData: { /posts/p1/title: Hi, /posts/p2: null } }
            """)
        #expect(bad.exitCode == 1)
        #expect(bad.stdout.contains("the read returned \"Hello\", expected \"Goodbye\""), "\(bad.stdout)")
        #expect(bad.stdout.contains("after the step /posts/p1/title holds \"Bye\", expected \"Hi\""))
        #expect(!bad.stdout.contains("expected allow, got allow"))
        #expect(bad.stdout.hasSuffix("\n0 passed, 2 failed\n"))
    }

    @Test func expectRuleAndExpectReasonCheckWhy() throws {
        let ok = try run("""
            tests:
              - { as: bob, set: /posts/p1/title, value: x, expect: deny, expectRule: /posts/$id/.write, expectReason: no .write rule }
              - { as: bob, set: /posts/p1/title, value: x, expect: deny, expectRule: { path: /posts/$id, kind: write } }
              - { as: alice, set: /posts/p2, value: { owner: alice }, expect: deny, expectRule: /posts/$id/.validate, expectReason: hasChildren }
            """)
        #expect(ok.exitCode == 0, "\(ok.stdout)\(ok.stderr)")
        let bad = try run("""
            tests:
              - { as: bob, set: /posts/p1/title, value: x, expect: deny, expectRule: /posts/$id/.validate, expectReason: something else }
            """)
        #expect(bad.exitCode == 1)
        #expect(bad.stdout.contains("expected the deciding rule /posts/$id/.validate, got /posts/$id/.write"), "\(bad.stdout)")
        #expect(bad.stdout.contains("expected the reason to contain 'something else'"))
        // An explanation is shown for the failed step.
        #expect(bad.stdout.contains("deciding rule: /posts/$id/.write"))
    }

    @Test func dataAndAuthFromFilesAndIncludes() throws {
        let files = [
            "seed.json": #"{"posts": {"p9": {"owner": "carol", "title": "From a file"}}}"#,
            "users.yaml": "carol: { uid: carol }\n",
            "common.yaml": "auth:\n  dave: { uid: dave }\ndata:\n  posts: { p7: { owner: dave, title: Included } }\n",
            "s.test.yaml": Self.rules + """

                include: common.yaml
                auth: { file: users.yaml }
                tests:
                  - { as: dave, read: /posts/p7/title, expect: allow, expectValue: Included }
                  - { name: own data, data: { file: seed.json }, as: carol, set: /posts/p9/title, value: y, expect: allow }
                """,
        ]
        let output = try SpecFixture.output(files, paths: ["s.test.yaml"])
        #expect(output.exitCode == 0, "\(output.stdout)\(output.stderr)")
        let missing = try SpecFixture.output(["s.test.yaml": Self.rules + "\ndata: { file: nowhere.json }\ntests: [ { read: /a, expect: deny } ]\n"], paths: ["s.test.yaml"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("s.test.yaml:2:7: error: no such file:"), "\(missing.stderr)")
    }

    @Test func mergeKeysShareStepDefaults() throws {
        let merged = try run("""
            tests:
              - &bob { as: bob, set: /posts/p1/title, value: x, expect: deny, name: first }
              - { <<: *bob, name: second, value: z }
              - { <<: [*bob], name: third, as: alice, expect: allow }
            """)
        #expect(merged.exitCode == 0, "\(merged.stdout)\(merged.stderr)")
        let r = try #require(merged.result)
        #expect(r.tests.map(\.name) == ["first", "second", "third"])
        #expect(r.tests.map { $0.steps.first?.actual } == ["deny", "deny", "allow"])
        let wrong = try run("tests:\n  - { <<: 5, read: /a, expect: deny }\n")
        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("'<<' merges a mapping or a list of mappings"), "\(wrong.stderr)")
    }

    @Test func skipAndOnly() throws {
        let skipped = try run("""
            tests:
              - { name: runs, as: bob, read: /posts/p1, expect: allow }
              - { name: skipped, skip: true, as: bob, read: /posts/p1, expect: deny }
            """)
        #expect(skipped.exitCode == 0)
        #expect(skipped.stdout.contains("- skipped (skipped)"))
        #expect(skipped.stdout.hasSuffix("\n1 passed, 0 failed, 1 test skipped\n"))
        let only = try run("""
            tests:
              - { name: left out, as: bob, read: /posts/p1, expect: deny }
              - { name: focused, only: true, as: bob, read: /posts/p1, expect: allow }
            """)
        #expect(only.exitCode == 0)
        let r = try #require(only.result)
        #expect(r.tests.map(\.skipped) == [true, false])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter.report(r).utf8)) as? [String: Any])
        #expect(json["version"] as? Int == 1 && json["unit"] as? String == "step")
        #expect(json["skipped"] as? Int == 1 && json["passed"] as? Int == 1)
    }

    @Test func everyLoadErrorOfAFileIsReported() throws {
        let output = try SpecFixture.output(["s.test.yaml": Self.rules + """

            colour: blue
            tests:
              - { read: /a }
              - { read: /a, expect: maybe }
              - { read: /a, expect: allow }
              - { set: /a, expect: allow }
            """], paths: ["s.test.yaml"])
        #expect(output.exitCode == 2)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 4, "\(output.stderr)")
        #expect(lines[0].contains(":2:1: error: unknown key 'colour'"))
        #expect(lines[1].contains("missing 'expect'"))
        #expect(lines[2].contains("'expect' must be allow or deny"))
        #expect(lines[3].contains("'set' needs 'value'"))
    }

    @Test func junitHasFileAndLineAndLoadErrors() throws {
        let (output, dir) = try SpecFixture.run([
            "a.test.yaml": Self.header + "tests:\n  - { as: bob, read: /posts/p1, expect: allow }\n  - { name: skipped, skip: true, read: /x, expect: deny }\n",
        ], paths: ["a.test.yaml"]) { options, url in options.junitPath = url.appendingPathComponent("junit.xml").path }
        defer { dir.remove() }
        #expect(output.exitCode == 0)
        let xml = try String(contentsOf: dir.file("junit.xml"), encoding: .utf8)
        #expect(xml.contains("file=\"\(dir.file("a.test.yaml").path)\" line=\"8\""), "\(xml)")
        #expect(xml.contains("<skipped/>"))
        #expect(xml.contains("tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\""))

        let (broken, dir2) = try SpecFixture.run(["b.test.yaml": "tests: [ { read: /a } ]\n"], paths: ["b.test.yaml"]) { options, url in
            options.junitPath = url.appendingPathComponent("junit.xml").path
        }
        defer { dir2.remove() }
        #expect(broken.exitCode == 2)
        let errorXML = try String(contentsOf: dir2.file("junit.xml"), encoding: .utf8)
        #expect(errorXML.contains("errors=\"1\""))
        #expect(errorXML.contains("<error message=\""), "\(errorXML)")
        #expect(errorXML.contains("type=\"LoadError\""))
        _ = try XMLDocument(xmlString: errorXML)
        _ = try XMLDocument(xmlString: xml)
    }

    @Test func lcovNamesFilesByAbsolutePath() throws {
        let (output, dir) = try SpecFixture.run(["s.test.yaml": Self.header + "tests:\n  - { as: bob, read: /posts/p1, expect: allow }\n"], paths: ["s.test.yaml"]) { options, url in
            options.coverageLCOVPath = url.appendingPathComponent("rules.lcov").path
            options.coverageJSONPath = url.appendingPathComponent("coverage.json").path
        }
        defer { dir.remove() }
        #expect(output.exitCode == 0)
        let lcov = try String(contentsOf: dir.file("rules.lcov"), encoding: .utf8)
        let sf = try #require(lcov.split(separator: "\n").first { $0.hasPrefix("SF:") })
        #expect(sf.dropFirst(3).hasPrefix("/"), "\(sf)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.file("coverage.json"))) as? [String: Any])
        #expect(json["version"] as? Int == CoverageReporter.version)
        // A relative path is made absolute against the working directory.
        #expect(CoverageReporter.absolute("a/./b/../c.json") == FileManager.default.currentDirectoryPath + "/a/c.json")
    }
}
