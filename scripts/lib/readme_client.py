"""Builds the README's example (its first Swift code block that imports Fanout), verbatim, as a client package of
this checkout and runs it: what `scripts/readme-client` does.

    scripts/readme-client [--readme README.md] [--work DIR]

The block is the package's `main.swift`; the package depends on this checkout by path, as a new user's would on the
repository. The program's standard output must equal the first `text` block that follows the Swift block (what the
README says it prints). Exit 0 when it builds, runs and prints that; 1 when it does not (with the README's line
number and the difference); 2 on a bad argument or a README without those blocks.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_cost import ROOT, write_package


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="scripts/readme-client", description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", default=os.path.join(ROOT, "README.md"), help="the README (default README.md)")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build-readme-client"), help="work folder")
    return parser.parse_args(argv)


def blocks(path):
    """The README's first ```swift block that imports Fanout and the first ```text block after it: (line, text)
    each."""
    with open(path) as file:
        lines = file.read().splitlines()
    found, inside, start = [], None, 0
    for number, line in enumerate(lines, 1):
        if inside is not None:
            if line.startswith("```"):
                # A Swift block that does not import Fanout (the install lines of Package.swift) is not the example.
                if inside[1] != "swift" or "import Fanout" in inside[0]:
                    found.append((start, inside[1], "\n".join(inside[0]) + "\n"))
                inside = None
            else:
                inside[0].append(line)
        elif line.startswith("```swift") or (line.startswith("```text") and found):
            inside, start = ([], line[3:].strip()), number + 1
        if len(found) == 2:
            break
    if len(found) < 2 or found[0][1] != "swift" or found[1][1] != "text":
        print(f"{path}: no ```swift block followed by a ```text block of its output", file=sys.stderr)
        sys.exit(2)
    return (found[0][0], found[0][2]), (found[1][0], found[1][2])


def main(argv):
    arguments = parse_arguments(argv)
    (source_line, source), (output_line, expected) = blocks(arguments.readme)
    write_package(arguments.work, source, with_fanout=True)
    build = subprocess.run(["swift", "build", "--package-path", arguments.work], capture_output=True, text=True, check=False)
    if build.returncode != 0:
        print(f"{arguments.readme}:{source_line}: the README's example does not build as a client:\n"
              f"{build.stdout[-4000:]}{build.stderr[-4000:]}", file=sys.stderr)
        return 1
    binary = subprocess.run(["swift", "build", "--package-path", arguments.work, "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip()
    run = subprocess.run([os.path.join(binary, "Client")], capture_output=True, text=True, check=False)
    if run.returncode != 0 or run.stdout != expected:
        print(f"{arguments.readme}:{output_line}: the program prints what the README does not say "
              f"(exit {run.returncode}):\n--- README\n{expected}--- program\n{run.stdout}{run.stderr}", file=sys.stderr)
        return 1
    print(f"readme-client: {arguments.readme}:{source_line} builds as a client and prints what line {output_line} "
          f"shows ({len(expected.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
