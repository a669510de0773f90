"""Compares the dispatch time of two builds, each as a ratio to the C floor measured in the same run, over interleaved
runs: what `scripts/compare-builds` does.

A run's time at small widths moves with where the process's code and data land (ASLR), by steps of a cycle or more
per message, and every case of one run moves together less than cases of different runs do. So a build is measured
in several processes, alternating with the other build, and each case is divided by the C floor's time for the same
message and width in the same run (`cFunctionPointer`: a C loop over (context, function pointer) pairs). Per strategy
and width, the figure is the median over runs of that ratio, the median over the selected messages.

    scripts/compare-builds [--runs N] [--widths 1,2,4,8] [--strategies a,b] [--messages m,n] [--work DIR]
                           [--align] BASE [HEAD]

BASE and HEAD are each a git revision, built once in a worktree under the work folder (default .build-compare/),
or the path of a `bench` executable. HEAD defaults to this checkout's release build (`swift build -c release`).
Prints, per strategy and width, BASE's and HEAD's median ratio and HEAD / BASE, with each run's ratio; writes the
runs' CSVs and `ratios.csv` (one row per build, run, strategy, width and message) into the work folder.
With `--align`, both revisions are built (into `.build-aligned`, beside their usual build) with every function and
every block not reached by falling through (most loop heads) aligned to 64 bytes, in the Swift code and the C floor
alike: where such a loop starts relative to a cache line or a decoder window then depends less on the code around it,
which an unrelated change moves. A BASE or HEAD given as an executable is refused with `--align`. Not the build a client gets; a way to tell a change in the code from a change in its placement.
Exit 0 when measured; 2 on a bad argument or a build that fails.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_csv


def floor():
    """The C floor every ratio divides by (Results/headline.json)."""
    return results_csv.headline()["floor"]


# LLVM's block placement options, for the Swift compiler and for clang (the C targets).
ALIGNED = [flag for option in ("-align-all-functions=6", "-align-all-nofallthru-blocks=6")
           for flag in ("-Xswiftc", "-Xllvm", "-Xswiftc", option, "-Xcc", "-mllvm", "-Xcc", option)]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/compare-builds",
        description="Dispatch time of two builds, as ratios to the C floor of the same run, over interleaved runs.")
    parser.add_argument("base", metavar="BASE", help="a git revision, or the path of a bench executable")
    parser.add_argument("head", metavar="HEAD", nargs="?",
                        help="a git revision, or the path of a bench executable (default: this checkout's release build)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each build, interleaved (default 5)")
    parser.add_argument("--widths", default="1,2,4,8", help="fan-out widths (default 1,2,4,8)")
    parser.add_argument("--strategies", default="existentialArray,lifetimeBoundToOwner,closureTable,selectorDictionary,"
                        "weakArray,concurrent", help="strategies or peers to compare (the C floor is always measured)")
    parser.add_argument("--messages", default="didScroll,didEndDragging,shouldScrollToTop,viewForZooming,willEndDragging",
                        help="messages (default: all four)")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build-compare"), help="work folder (default .build-compare/)")
    parser.add_argument("--align", action="store_true",
                        help="build both with functions and blocks not reached by falling through aligned to 64 bytes")
    arguments = parser.parse_args(argv)
    if arguments.runs < 1:
        parser.error("--runs must be at least 1")
    try:
        arguments.widths = [int(width) for width in arguments.widths.split(",")]
    except ValueError:
        parser.error(f"--widths takes numbers separated by commas, not '{arguments.widths}'")
    if any(width < 1 for width in arguments.widths):
        parser.error("--widths must be positive")
    arguments.strategies = [name for name in arguments.strategies.split(",") if name]
    arguments.messages = [name for name in arguments.messages.split(",") if name]
    if not arguments.strategies or not arguments.messages:
        parser.error("--strategies and --messages need at least one name")
    return arguments


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def build_command(package, align):
    command = ["swift", "build", "-c", "release", "--product", "bench", "--package-path", package]
    if align:
        command += ["--scratch-path", os.path.join(package, ".build-aligned")] + ALIGNED
    return command


def built_binary(package, align):
    return os.path.join(package, ".build-aligned" if align else ".build", "release", "bench")


def executable(spec, work, align):
    """The bench executable for `spec`: a path as it is, or a revision built in a worktree of its own."""
    if os.path.sep in spec and os.path.isfile(spec) and os.access(spec, os.X_OK):
        if align:
            fail(f"--align builds both revisions; '{spec}' is an executable, built as it was")
        return os.path.abspath(spec), os.path.basename(spec)
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--short", f"{spec}^{{commit}}"],
                              capture_output=True, text=True, check=False)
    if revision.returncode != 0:
        fail(f"'{spec}' is neither a bench executable nor a git revision")
    commit = revision.stdout.strip()
    tree = os.path.join(work, commit)
    binary = built_binary(tree, align)
    if not os.access(binary, os.X_OK):
        if not os.path.isdir(tree):
            result = subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", tree, commit],
                                    capture_output=True, text=True, check=False)
            if result.returncode != 0:
                fail(f"git worktree add {commit}: {result.stderr.strip()}")
        print(f"== building bench at {commit} in {tree}", file=sys.stderr)
        result = subprocess.run(build_command(tree, align), stdout=sys.stderr, check=False)
        if result.returncode != 0:
            fail(f"the build of {commit} failed")
    return binary, commit


def head_executable(align):
    print("== building this checkout's bench (release)", file=sys.stderr)
    if subprocess.run(build_command(ROOT, align), stdout=sys.stderr, check=False).returncode != 0:
        fail("the build of this checkout failed")
    return built_binary(ROOT, align), "HEAD (working tree)"


def measure(binary, output, arguments):
    strategies = "|".join(dict.fromkeys([*arguments.strategies, floor()]))
    command = [binary, "--no-progress", "--filter", f"^{results_csv.headline()['benchmark']}/({strategies})/",
               "--widths", ",".join(map(str, arguments.widths)), "--messages", ",".join(arguments.messages),
               "--output", output]
    # Each run is one process of each build, interleaved: a build that measures its published cases in several
    # processes by default (`--processes`) is asked for one, as older builds measure them.
    usage = subprocess.run([binary, "--help"], capture_output=True, text=True, check=False).stdout
    if "--processes" in usage:
        command += ["--processes", "1"]
    if subprocess.run(command, stdout=subprocess.DEVNULL, check=False).returncode != 0:
        fail(f"{binary} failed: {' '.join(command)}")


CPUS = set()


def ratios(path, arguments):
    """{(strategy, width, message): ns per message ÷ the C floor's} of one run, every target responding."""
    try:
        _, rows = results_csv.read(path)
    except results_csv.Malformed as error:
        fail(str(error))
    CPUS.update(row["cpu"] for row in rows)
    times = {(row["strategy"], int(row["width"]), row["message"]): float(row["ns_per_op_median"])
             for row in rows if row["benchmark"] == results_csv.headline()["benchmark"] and row["width"] == row["responders"]}
    c_floor = floor()
    return {(strategy, width, message): time / times[(c_floor, width, message)]
            for (strategy, width, message), time in times.items()
            if strategy != c_floor and (c_floor, width, message) in times}


def main(argv):
    arguments = parse_arguments(argv)
    os.makedirs(arguments.work, exist_ok=True)
    builds = [executable(arguments.base, arguments.work, arguments.align)]
    builds.append(executable(arguments.head, arguments.work, arguments.align) if arguments.head
                  else head_executable(arguments.align))
    runs = {index: [] for index in range(2)}
    for run in range(1, arguments.runs + 1):
        for index, (binary, _) in enumerate(builds):
            output = os.path.join(arguments.work, f"run-{index}-{run}.csv")
            measure(binary, output, arguments)
            runs[index].append(ratios(output, arguments))
        print(f"== run {run} of {arguments.runs} done", file=sys.stderr)

    handle, temporary = tempfile.mkstemp(dir=arguments.work, suffix=".tmp")
    with os.fdopen(handle, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["build", "run", "strategy", "width", "message", "ratio_to_floor"])
        for index, (_, name) in enumerate(builds):
            for run, cells in enumerate(runs[index], start=1):
                for (strategy, width, message), ratio in sorted(cells.items()):
                    writer.writerow([name, run, strategy, width, message, f"{ratio:.4f}"])
    os.replace(temporary, os.path.join(arguments.work, "ratios.csv"))

    print(f"median over {arguments.runs} interleaved runs of (ns per message ÷ the C floor's, same run), "
          f"median over {', '.join(arguments.messages)}")
    aligned = "; both built with --align" if arguments.align else ""
    print(f"BASE {builds[0][1]}, HEAD {builds[1][1]}{aligned}; CPU: {', '.join(sorted(CPUS))}")
    print(f"{'strategy':24} {'width':>5} {'BASE':>6} {'HEAD':>6} {'HEAD/BASE':>9}   per run (BASE | HEAD)")
    for strategy in arguments.strategies:
        for width in arguments.widths:
            per_run = []
            for index in range(2):
                values = [statistics.median(cells[(strategy, width, message)] for message in arguments.messages)
                          for cells in runs[index]
                          if all((strategy, width, message) in cells for message in arguments.messages)]
                per_run.append(values)
            if not per_run[0] or not per_run[1]:
                continue
            base, head = statistics.median(per_run[0]), statistics.median(per_run[1])
            runs_text = " ".join(f"{value:.2f}" for value in per_run[0]) + " | " + \
                " ".join(f"{value:.2f}" for value in per_run[1])
            print(f"{strategy:24} {width:>5} {base:6.2f} {head:6.2f} {head / base:9.3f}   {runs_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
