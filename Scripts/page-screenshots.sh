#!/usr/bin/env bash
# Takes the README's screenshots of the `rules serve` page again (docs/images/*.png): runs the
# page's browser test with RULES_PAGE_SCREENSHOTS set. Needs the debug build (swift build) and
# Chromium with its driver (apt-get install -y chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
RULES_PAGE_SCREENSHOTS="$PWD/docs/images" bash Tests/ClientTests/run.sh -k test_a_denied_double_star_is_listed "$@"
