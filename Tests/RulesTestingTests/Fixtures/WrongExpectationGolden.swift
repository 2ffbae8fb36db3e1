// The expected human output of GoldenTests; rewritten by `RECORD_GOLDEN=1 swift test`.
enum WrongExpectationGolden {
    static let text = ##"""
        wrong-expectation.test.yaml
          ✓ alice retitles her post
          ✗ bob retitles alice's post
              step 2: set /posts/p1/title as bob
                expected allow, got deny
                reason: no .write rule on /posts/p1/title or above it granted the write
                deciding rule: /posts/$postId/title/.write at wrong-expectation.rules.json:7:21 (line 7)
                  set /posts/p1/title: denied: data.parent().child('uid').val() === auth.uid was false: 'alice' === 'bob'
                    at wrong-expectation.rules.json:7:38 in /posts/$postId/title/.write on /posts/p1/title
                      ".write": "auth != null && data.parent().child('uid').val() === auth.uid",
                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
                    → /posts/$postId/title/.write at wrong-expectation.rules.json:7:21 on /posts/p1/title: false
                        with $postId = 'p1'
                        auth != null && data.parent().child('uid').val() === auth.uid
                          auth != null = true
                          auth = {provider, token, uid}
                          null = null
                          data.parent().child('uid').val() === auth.uid = false
                          data.parent().child('uid').val() = 'alice'
                          data.parent().child('uid') = snapshot /posts/p1/uid = 'alice'
                          data.parent() = snapshot /posts/p1 = {title, uid}
                          data = snapshot /posts/p1/title = 'Hello'
                          auth.uid = 'bob'
                          auth = {provider, token, uid}
        2 passed, 1 failed

        """##
}
