#!/usr/bin/env python3
"""Checks of a GitHub Actions workflow that its JSON schema cannot make.

usage: lint_workflows.py WORKFLOW.yml ...

- every `${{` has its `}}`;
- every `matrix.<key>` a job uses is a key of that job's matrix (or of every `include` entry);
- every job named in `needs` exists, and `needs.<job>` in an expression names one of them.
Prints `file: job: problem` per problem and exits 1 if there is any. Needs ruamel.yaml (check-jsonschema's).
"""
import argparse
import re
import sys

from ruamel.yaml import YAML


def expressions(node):
    """Every expression in a YAML tree: what `${{ }}` encloses, and every `if:` (an expression without them).
    Yields (text, problem or None)."""
    if isinstance(node, str):
        if node.count("${{") != node.count("}}"):
            yield node, f"unbalanced ${{{{ }}}} in {node!r}"
        for expression in re.findall(r"\$\{\{(.*?)\}\}", node, re.DOTALL):
            yield expression, None
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "if" and isinstance(value, str) and "${{" not in value:
                yield value, None
            else:
                yield from expressions(value)
    elif isinstance(node, list):
        for value in node:
            yield from expressions(value)


def matrix_keys(job):
    matrix = (job.get("strategy") or {}).get("matrix")
    if not isinstance(matrix, dict):
        return None
    keys = {key for key in matrix if key not in ("include", "exclude")}
    include = matrix.get("include") or []
    if include:
        common = set.intersection(*(set(entry) for entry in include))
        keys |= common
    return keys


def lint(path):
    problems = []
    with open(path) as handle:
        workflow = YAML(typ="safe").load(handle)
    jobs = workflow.get("jobs") or {}
    for name, job in jobs.items():
        needs = job.get("needs") or []
        needs = [needs] if isinstance(needs, str) else list(needs)
        for need in needs:
            if need not in jobs:
                problems.append(f"{path}: {name}: needs unknown job '{need}'")
        keys = matrix_keys(job)
        for expression, problem in expressions(job):
            if problem:
                problems.append(f"{path}: {name}: {problem}")
                continue
            for key in re.findall(r"\bmatrix\.([A-Za-z_][A-Za-z0-9_-]*)", expression):
                if keys is None:
                    problems.append(f"{path}: {name}: uses matrix.{key} without a matrix")
                elif key not in keys:
                    problems.append(f"{path}: {name}: matrix.{key} is not a key of every matrix entry")
            for job_name in re.findall(r"\bneeds\.([A-Za-z_][A-Za-z0-9_-]*)", expression):
                if job_name not in needs:
                    problems.append(f"{path}: {name}: needs.{job_name} is not in its needs")
    return problems


def main(argv):
    parser = argparse.ArgumentParser(prog="lint_workflows.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("paths", nargs="+", metavar="WORKFLOW.yml")
    paths = parser.parse_args(argv).paths
    problems = [problem for path in paths for problem in lint(path)]
    for problem in problems:
        print(problem)
    print(f"lint_workflows.py: {len(paths)} workflow(s), {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
