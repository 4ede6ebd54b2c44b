"""The loader: export files in, their listing out (raw.export_files), with the UTF-8 copies
staging reads where DuckDB cannot read a file as it is.

Ordinary Python, tested without dbt; `dbt build` runs it first (models/staging/exports/
export_loads.py) and staging reads the listing through `source('exports', 'export_files')`.
"""

from agent_scoring.loader.land import (
    DictionaryError,
    InputDirError,
    Registry,
    export_dictionary,
    load_exports,
)

__all__ = ["DictionaryError", "InputDirError", "Registry", "export_dictionary", "load_exports"]
