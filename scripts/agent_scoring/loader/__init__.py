"""The loader: export files in, landing tables out (raw.export_files, raw.export_rows).

Ordinary Python, tested without dbt; `dbt build` runs it first (models/staging/exports/
export_loads.py) and every model reads what it landed through `source('exports', ...)`.
"""

from agent_scoring.loader.land import (
    DictionaryError,
    InputDirError,
    Registry,
    export_dictionary,
    load_exports,
)

__all__ = ["DictionaryError", "InputDirError", "Registry", "export_dictionary", "load_exports"]
