#!/usr/bin/env python3
"""Writes an emulator export shaped like a blog app's data, for `rules serve --import`.

    OUT/database_export/<namespace>.json = {"posts": {<push id>: post, ...}, "users": {<uid>: user, ...}}

A post is {uid, author, title, body, starCount, timestamp, stars: {<uid>: true, ...}}: starCount
follows a long-tailed distribution (most posts have a few stars, many share a count, a few
have thousands), `stars` names up to three of the users who starred it. A user is {name, email,
score}. Post keys are push ids (20 characters, ordered by their timestamps) as the SDKs make
them. The output is written as it is generated, so a 300 MB export needs no more memory than a
small one; the same options always give the same bytes (`--seed`).

Usage:
    python3 Benchmarks/make_export.py --out /tmp/export                  # 200,000 posts: 39 MB, 1.4 M leaves
    python3 Benchmarks/make_export.py --out /tmp/big --posts 1550000     # 300 MB, 10.9 M leaves
    .build/release/rules serve Benchmarks/data/database.rules.json --import /tmp/export
The post with uid u42 always exists (the first one), so `orderBy="uid"&equalTo="u42"` finds it.
"""
import argparse
import json
import os
import random
import sys
import time

PUSH_CHARS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
FIRST_NAMES = ["Ada", "Alan", "Barbara", "Claude", "Dennis", "Edsger", "Frances", "Grace", "Hedy", "Ivan",
               "Jean", "Ken", "Leslie", "Margaret", "Niklaus", "Radia", "Shafi", "Tim", "Whitfield", "Yukihiro"]
LAST_NAMES = ["Lovelace", "Turing", "Liskov", "Shannon", "Ritchie", "Dijkstra", "Allen", "Hopper", "Lamarr",
              "Sutherland", "Sammet", "Thompson", "Lamport", "Hamilton", "Wirth", "Perlman", "Goldwasser",
              "Berners-Lee", "Diffie", "Matsumoto"]
WORDS = ("the a an of to in for on with about after before why how when what our my your their this that "
         "rules database query index listener stream snapshot offline cache sync write read server client "
         "mobile web app user post comment star feed timeline shard latency memory export import backup "
         "release test bug fix note idea plan trip recipe garden coffee weekend morning city river mountain "
         "book film song photo team launch update review guide lesson story question answer").split()
BASE_TIME_MS = 1_700_000_000_000  # 2023-11-14


class PushIds:
    """Push ids as the SDKs generate them: 8 characters of the millisecond timestamp, then 12
    random ones; within one millisecond the random part is incremented, so keys stay ordered."""

    def __init__(self, rng):
        self.rng, self.last_time, self.last_random = rng, -1, []

    def next(self, now_ms):
        stamp = []
        t = now_ms
        for _ in range(8):
            stamp.append(PUSH_CHARS[t % 64])
            t //= 64
        if now_ms == self.last_time:
            i = 11
            while self.last_random[i] == 63:
                self.last_random[i] = 0
                i -= 1
            self.last_random[i] += 1
        else:
            self.last_random = [self.rng.randrange(64) for _ in range(12)]
        self.last_time = now_ms
        return "".join(reversed(stamp)) + "".join(PUSH_CHARS[i] for i in self.last_random)


def star_count(rng):
    """Long-tailed: about half the posts have 0 or 1 star, a few hundred in 200,000 have 500 or more."""
    return min(int(rng.paretovariate(1.1)) - 1, 1_000_000)


def sentence(rng, low, high):
    words = rng.choices(WORDS, k=rng.randint(low, high))
    return " ".join(words).capitalize()


def write_export(out, posts=200_000, users=5_000, namespace="bench", seed=1):
    """Writes OUT/database_export/NAMESPACE.json; returns (path, bytes, leaves)."""
    if users < 43:
        raise ValueError("--users must be at least 43 (u42 is the uid the benchmark queries)")
    rng = random.Random(seed)
    directory = os.path.join(out, "database_export")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{namespace}.json")
    names = [f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(users)]
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    leaves = 0
    ids = PushIds(rng)
    now = BASE_TIME_MS
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as f:
        f.write('{"posts":{')
        for i in range(posts):
            # Mostly seconds apart, sometimes within the same millisecond (a burst of writes).
            now += 0 if rng.random() < 0.02 else rng.randint(1, 60_000)
            author = 42 if i == 0 else rng.randrange(users)
            stars = star_count(rng)
            post = {"uid": f"u{author}", "author": names[author], "title": sentence(rng, 1, 4),
                    "body": sentence(rng, 3, 9) + ".", "starCount": stars, "timestamp": now}
            leaves += 6
            if stars:
                starred = {f"u{rng.randrange(users)}": True for _ in range(min(stars, 3))}
                post["stars"] = starred
                leaves += len(starred)
            f.write(("," if i else "") + dumps(ids.next(now)) + ":" + dumps(post))
        f.write('},"users":{')
        for u in range(users):
            user = {"name": names[u], "email": f"user{u}@example.com", "score": int(rng.expovariate(1 / 300))}
            f.write(("," if u else "") + f'"u{u}":' + dumps(user))
            leaves += 3
        f.write("}}\n")
    return path, os.path.getsize(path), leaves


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--posts", type=int, default=200_000, help="posts to write (default 200000)")
    parser.add_argument("--users", type=int, default=5_000, help="users to write (default 5000, at least 43)")
    parser.add_argument("--out", required=True, metavar="DIR", help="the export directory (DIR/database_export/NS.json)")
    parser.add_argument("--namespace", default="bench", help="the namespace, the file's name (default bench)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    args = parser.parse_args()
    started = time.perf_counter()
    try:
        path, size, leaves = write_export(args.out, args.posts, args.users, args.namespace, args.seed)
    except (ValueError, OSError) as error:
        print(f"make_export.py: {error}", file=sys.stderr)
        return 1
    print(f"{path}: {size / 1e6:.1f} MB ({size:,} bytes), {leaves:,} leaves, "
          f"{args.posts:,} posts, {args.users:,} users, in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
