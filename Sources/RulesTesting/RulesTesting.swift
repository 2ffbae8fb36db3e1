// The rules test runner.
