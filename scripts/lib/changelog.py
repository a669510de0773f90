"""Reads CHANGELOG.md's release sections ("## [VERSION] - YYYY-MM-DD") for scripts/release and the release workflow.

usage: changelog.py section CHANGELOG VERSION   prints the section's text, without its heading
"""

import argparse
import datetime
import re
import sys

HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<rest>.*))?$")


def section(path: str, version: str) -> str:
    """The text of VERSION's section; raises ValueError naming the file and line when it is missing or malformed."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    start = None
    for number, line in enumerate(lines, 1):
        match = HEADING.match(line)
        if not match:
            continue
        if start is not None:
            end = number - 1
            break
        if match["version"] != version:
            continue
        try:
            datetime.date.fromisoformat((match["rest"] or "").strip())
        except ValueError:
            raise ValueError(f'{path}:{number}: "{line}" has no date YYYY-MM-DD after " - "') from None
        start = number
    else:
        end = len(lines)
    if start is None:
        raise ValueError(f"{path}: no section '## [{version}] - YYYY-MM-DD'")
    text = "\n".join(lines[start:end]).strip()
    if not text:
        raise ValueError(f"{path}:{start}: the section of {version} is empty")
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description="Read CHANGELOG.md's release sections.")
    commands = parser.add_subparsers(dest="command", required=True)
    read = commands.add_parser("section", help="print a version's section, without its heading")
    read.add_argument("changelog")
    read.add_argument("version")
    arguments = parser.parse_args()
    try:
        print(section(arguments.changelog, arguments.version))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
