"""``make bench``: every benchmark in turn — the semantic diff on the shared corpus, fetching and
storing, and building the change site (from prepared data, then from a store). Each prints its
own figures and ratios."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import diff, fetch, site, site_store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args(argv)
    status = diff.main(["--shared", str(args.shared)])
    print()
    fetch.main()
    print()
    site.main([])
    print()
    site_store.main([])
    return status


if __name__ == "__main__":
    sys.exit(main())
