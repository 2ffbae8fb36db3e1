#!/usr/bin/env python3
"""Writes a test file in targaryen's format for the blog example's rules, for timing `rules test`
end to end (see BENCHMARKS.md, "rules test end to end"). Deterministic: the same arguments give
the same file.

    python3 Scripts/targaryen-workload.py --posts 100000 --operations 2000 > /tmp/big.json
    .build/release/rules test /tmp/big.json --rules rules-examples/blog/database.rules.json

Each post has an author among 8 users; the operations cycle through four checks on a post:
its author and another user can read it, its author can retitle it, another user cannot.
"""
import argparse
import json
import sys

USERS = [f"user{i}" for i in range(8)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, required=True, help="posts in the starting tree")
    parser.add_argument("--operations", type=int, required=True, help="reads and writes to check")
    args = parser.parse_args()
    if args.posts < 1 or args.operations < 1:
        parser.error("--posts and --operations must be at least 1")

    posts = {}
    for i in range(args.posts):
        uid = USERS[i % len(USERS)]
        posts[f"p{i:07d}"] = {
            "uid": uid,
            "author": uid.capitalize(),
            "title": f"Post {i}",
            "body": "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
            "starCount": 0,
        }
    users = {name: {"uid": name, "provider": "password"} for name in USERS}
    for name in USERS:
        users[name]["token"] = {"email_verified": True}

    tests = {}
    # Four checks per post, spread over the posts by a fixed stride.
    checks = 0
    i = 0
    while checks < args.operations:
        n = (i * 7919) % args.posts
        uid = USERS[n % len(USERS)]
        other = USERS[(n + 1) % len(USERS)]
        post = f"p{n:07d}"
        for kind in range(4):
            if checks == args.operations:
                break
            if kind < 2:
                entry = tests.setdefault(f"posts/{post}", {})
                entry.setdefault("canRead", []).append(uid if kind == 0 else other)
            else:
                entry = tests.setdefault(f"posts/{post}/title", {})
                who = uid if kind == 2 else other
                key = "canWrite" if kind == 2 else "cannotWrite"
                entry.setdefault(key, []).append({"auth": who, "data": f"Retitled {checks}"})
            checks += 1
        i += 1

    json.dump({"root": {"posts": posts}, "users": users, "tests": tests}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
