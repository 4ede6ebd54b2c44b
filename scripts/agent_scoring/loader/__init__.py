"""The loader: export files in, their listing out (a temporary table, LISTING), with the
UTF-8 copies staging reads where DuckDB cannot read a file as it is.

Ordinary Python, tested without dbt; `dbt build` runs it first (models/staging/exports/
export_loads.py returns the listing as its table) and staging reads that model.
"""

from agent_scoring.loader.land import (
    LISTING,
    DictionaryError,
    InputDirError,
    Registry,
    export_dictionary,
    load_exports,
    previous_listing,
)

__all__ = ["LISTING", "DictionaryError", "InputDirError", "Registry", "export_dictionary",
           "load_exports", "previous_listing"]
