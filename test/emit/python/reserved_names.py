"""Reads printed Python modules with Python's own parser and reports every identifier that collides.

Input (stdin, JSON): {"files": [paths]}. Output (stdout, JSON): {"problems": [...], "counts": {...}}.
Independent of the generator's naming pass: the rules are Python's (keywords, builtins) and pydantic's
(BaseModel's attributes), read from the interpreter and the installed pydantic.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import sys

from pydantic import BaseModel

MODEL_BASES = {"runtime.OpenModel", "runtime.ClosedModel"}
BASE_MODEL_ATTRIBUTES = set(dir(BaseModel))
BUILTINS = set(dir(builtins))


def add_binding(bound: dict[str, int], problems: list[str], file: str, name: str, line: int) -> None:
    """Record a module-level binding of `name` at `line`, reporting what is wrong with it."""
    if name in bound:
        problems.append(f"{file}:{line}: {name} is bound at module level again (first at line {bound[name]})")
    else:
        bound[name] = line
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
        problems.append(f"{file}:{line}: {name} is a private-looking module-level name")
    if keyword.iskeyword(name):
        problems.append(f"{file}:{line}: {name} is a keyword")


def main() -> None:
    files: list[str] = json.load(sys.stdin)["files"]
    problems: list[str] = []
    counts = {"modules": 0, "module_names": 0, "classes": 0, "fields": 0}
    for file in files:
        with open(file, encoding="utf-8") as f:
            tree = ast.parse(f.read(), file)  # a keyword used as a name does not parse
        counts["modules"] += 1
        bound: dict[str, int] = {}

        for stmt in tree.body:
            if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                add_binding(bound, problems, file, stmt.name, stmt.lineno)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        add_binding(bound, problems, file, target.id, stmt.lineno)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                add_binding(bound, problems, file, stmt.target.id, stmt.lineno)
            elif isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__":
                for alias in stmt.names:
                    add_binding(bound, problems, file, alias.asname or alias.name, stmt.lineno)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    add_binding(bound, problems, file, alias.asname or alias.name.split(".")[0], stmt.lineno)
        counts["module_names"] += len(bound)
        # A module-level name that is a builtin the module reads would replace it for the whole module.
        read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for name, line in bound.items():
            if name in BUILTINS and name in read:
                problems.append(f"{file}:{line}: {name} shadows the builtin the module reads")
        for stmt in tree.body:
            if not isinstance(stmt, ast.ClassDef) or not any(ast.unparse(b) in MODEL_BASES for b in stmt.bases):
                continue
            counts["classes"] += 1
            fields: dict[str, int] = {}
            for item in stmt.body:
                if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
                    continue
                name = item.target.id
                if name == "__pydantic_extra__":
                    continue
                counts["fields"] += 1
                where = f"{file}:{item.lineno}: {stmt.name}.{name}"
                if name in fields:
                    problems.append(f"{where} is a field again (first at line {fields[name]})")
                fields[name] = item.lineno
                if name.startswith("_"):
                    problems.append(f"{where} starts with an underscore (pydantic keeps such names private)")
                if name in BASE_MODEL_ATTRIBUTES:
                    problems.append(f"{where} shadows BaseModel.{name}")
                if name in bound:
                    problems.append(f"{where} shadows the module-level {name} (line {bound[name]}) in the class body")
    json.dump({"problems": problems, "counts": counts}, sys.stdout)


if __name__ == "__main__":
    main()
