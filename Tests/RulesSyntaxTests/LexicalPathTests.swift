import Testing
import RulesSyntax

struct LexicalPathTests {
    @Test(arguments: [
        ("a/./b/../c.json", "a/c.json"),
        ("./a//b/", "a/b"),
        ("../x/../../y", "../../y"),
        ("a/..", "."),
        ("", "."),
        ("/a/../../b", "/b"),
        ("//a/./b", "/a/b"),
        ("/", "/"),
        ("/..", "/"),
    ])
    func normalize(_ input: String, _ expected: String) {
        #expect(LexicalPath.normalize(input) == expected)
    }

    @Test func absoluteJoinsTheWorkingDirectory() {
        #expect(LexicalPath.absolute("a/../b//./c", workingDirectory: "/w") == "/w/b/c")
        #expect(LexicalPath.absolute("/x/y", workingDirectory: "/w") == "/x/y")
        #expect(LexicalPath.absolute("../..", workingDirectory: "/w") == "/")
        #expect(LexicalPath.absolute(".", workingDirectory: "/") == "/")
    }

    @Test func ancestorsGoUpToTheRoot() {
        #expect(LexicalPath.ancestors(of: "/a/b/c") == ["/a/b/c", "/a/b", "/a", "/"])
        #expect(LexicalPath.ancestors(of: "/") == ["/"])
        #expect(LexicalPath.child(".git", of: "/") == "/.git")
        #expect(LexicalPath.child(".git", of: "/a") == "/a/.git")
    }
}
