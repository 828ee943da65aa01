"""Import contracts that import-linter does not ship, declared in ``pyproject.toml``
(``[tool.importlinter] contract_types``) and checked by ``lint-imports``.

``standard_library_only``: the ``source_modules`` (and their submodules) import
nothing but the standard library of the Python that runs the check and the
``allowed_modules`` (and their submodules). Whatever else they import breaks the
contract, named: a package outside the project (installed or not) as well as a
module of the project not allowed, so that no new dependency or module escapes it.

``only_through``: the ``source_modules`` (and their submodules) import the package
``target`` only through its ``doors``: a direct import of any other module of
``target`` (the package itself included) breaks the contract, whichever module of it
is added later. The rest of ``target`` is reached through modules outside it.

``imported_only_by``: the ``modules`` (and their submodules) are imported directly by
the ``importers`` (and their submodules) only, whatever module imports them. Unlike
import-linter's ``protected`` type, a module that nothing imports yet keeps the
contract (``click`` while only typer's copy of it is used): the first import of it
outside the importers breaks it.
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
                broken.append(_import_of(graph, importer, imported, verbose))
        return ContractCheck(kept=not broken, metadata={"imports": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        _render_imports(
            "Imports of modules outside the standard library and the allowed ones:", check
        )


def _standard(module: str) -> bool:
    return module.partition(".")[0] in sys.stdlib_module_names


def _within(module: str, packages: list[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


class OnlyThroughContract(Contract):
    """See the module docstring. Options: ``source_modules``, ``target``, ``doors``."""

    type_name = "only_through"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    target = fields.ModuleField()
    doors = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        sources = module_expressions_to_modules(
            graph,
            self.source_modules,  # type: ignore[arg-type]
            as_packages=True,
            raise_if_unmatched=True,
        )
        target = self.target.name  # type: ignore[attr-defined]
        doors = [door.name for door in self.doors]  # type: ignore[attr-defined]
        broken = []
        for importer in sorted(m.name for m in sources):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if not _within(imported, [target]) or imported in doors:
                    continue
                broken.append(_import_of(graph, importer, imported, verbose))
        return ContractCheck(kept=not broken, metadata={"imports": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        doors = ", ".join(door.name for door in self.doors)  # type: ignore[attr-defined]
        _render_imports(f"Imports of {self.target} other than through {doors}:", check)


class ImportedOnlyByContract(Contract):
    """See the module docstring. Options: ``modules``, ``importers``."""

    type_name = "imported_only_by"

    modules = fields.ListField(subfield=fields.ModuleField())
    importers = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        protected = [m.name for m in self.modules]  # type: ignore[attr-defined]
        importers = [m.name for m in self.importers]  # type: ignore[attr-defined]
        broken = []
        for imported in sorted(graph.modules):
            if not _within(imported, protected):
                continue
            for importer in sorted(graph.find_modules_that_directly_import(imported)):
                if _within(importer, importers) or _within(importer, protected):
                    continue
                broken.append(_import_of(graph, importer, imported, verbose))
        return ContractCheck(kept=not broken, metadata={"imports": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        importers = ", ".join(m.name for m in self.importers)  # type: ignore[attr-defined]
        _render_imports(f"Imports from outside {importers}:", check)


def _import_of(
    graph: grimp.ImportGraph, importer: str, imported: str, verbose: bool
) -> dict[str, object]:
    """One import that breaks a contract: who imports what, on which lines."""
    details = graph.get_import_details(importer=importer, imported=imported)
    output.verbose_print(verbose, f"{importer} imports {imported}")
    lines = sorted({d["line_number"] for d in details})
    return {"importer": importer, "imported": imported, "lines": lines}


def _render_imports(header: str, check: ContractCheck) -> None:
    """The report of a broken contract whose metadata lists the imports that break it."""
    output.print_error(header)
    output.new_line()
    for found in check.metadata["imports"]:
        lines = ", ".join(f"l.{n}" for n in found["lines"])
        output.print_error(f"-   {found['importer']} -> {found['imported']} ({lines})", bold=False)
    output.new_line()
