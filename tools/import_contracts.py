"""Import contracts that import-linter does not ship, declared in ``pyproject.toml``
(``[tool.importlinter] contract_types``) and checked by ``lint-imports``.

``standard_library_only``: the ``source_modules`` (and their submodules) import
nothing but the standard library of the Python that runs the check and the
``allowed_modules`` (and their submodules). Whatever else they import breaks the
contract, named: a package outside the project (installed or not) as well as a
module of the project not allowed, so that no new dependency or module escapes it.
"""

from __future__ import annotations

import sys

import grimp
from importlinter import Contract, ContractCheck, fields, output
from importlinter.domain.helpers import module_expressions_to_modules


class StandardLibraryOnlyContract(Contract):
    """See the module docstring. Options: ``source_modules``, ``allowed_modules``."""

    type_name = "standard_library_only"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.ListField(subfield=fields.ModuleExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        sources = module_expressions_to_modules(
            graph,
            self.source_modules,  # type: ignore[arg-type]
            as_packages=True,
            raise_if_unmatched=True,
        )
        allowed = [m.name for m in module_expressions_to_modules(graph, self.allowed_modules or [])]  # type: ignore[arg-type]
        broken = []
        for importer in sorted(m.name for m in sources):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if _standard(imported) or _within(imported, allowed):
                    continue
                details = graph.get_import_details(importer=importer, imported=imported)
                lines = sorted({d["line_number"] for d in details})
                broken.append({"importer": importer, "imported": imported, "lines": lines})
                output.verbose_print(verbose, f"{importer} imports {imported}")
        return ContractCheck(kept=not broken, metadata={"imports": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("Imports of modules outside the standard library and the allowed ones:")
        output.new_line()
        for found in check.metadata["imports"]:
            lines = ", ".join(f"l.{n}" for n in found["lines"])
            output.print_error(
                f"-   {found['importer']} -> {found['imported']} ({lines})", bold=False
            )
        output.new_line()


def _standard(module: str) -> bool:
    return module.partition(".")[0] in sys.stdlib_module_names


def _within(module: str, packages: list[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)
