/// A spec with a deliberately wrong expectation, and the rules it runs against. The golden test
/// writes both into a temporary directory (SwiftPM would warn about non-source files here).
enum WrongExpectationFixture {
    static let spec = """
        # bob may not retitle alice's post, but this spec claims he may.
        rules: wrong-expectation.rules.json
        now: 1700000000000
        auth:
          alice: { uid: alice }
          bob: { uid: bob }
        data:
          posts:
            p1: { uid: alice, title: Hello }
        tests:
          - name: alice retitles her post
            as: alice
            set: /posts/p1/title
            value: Hello again
            expect: allow
          - name: bob retitles alice's post
            steps:
              - as: bob
                read: /posts/p1
                expect: allow
              - as: bob
                set: /posts/p1/title
                value: Mine now
                expect: allow

        """

    static let rules = """
        {
          "rules": {
            "posts": {
              "$postId": {
                ".read": "auth != null",
                "title": {
                  ".write": "auth != null && data.parent().child('uid').val() === auth.uid",
                  ".validate": "newData.isString()"
                }
              }
            }
          }
        }

        """
}
