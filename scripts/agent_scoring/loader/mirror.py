"""A Parquet copy of the landing tables, for engines that read files (the Spark target).

The loader stays the one reader of the exports: after a load, each export's rows are
written to a Parquet file of their own (named by a digest of the file name, so a changed or
removed export touches only its file) and the file table is written whole (one row per
export). Spark declares the folders as the sources `exports.export_rows` and
`exports.export_files` (the RAG documents come from base_rag__documents: copy_to_landing).
"""

import hashlib
from pathlib import Path

import duckdb

ROWS_DIR = "export_rows"
FILES_DIR = "export_files"


def rows_file(landing_dir: Path, source_file: str) -> Path:
    digest = hashlib.md5(source_file.encode("utf-8")).hexdigest()
    return landing_dir / ROWS_DIR / f"{digest}.parquet"


def write_parquet(con: duckdb.DuckDBPyConnection, query: str, params: list, path: Path) -> None:
    """Write atomically: a reader never sees half a file."""
    partial = path.with_suffix(".partial")
    con.execute(f"copy ({query}) to '{partial}' (format parquet)", params)
    partial.replace(path)


def mirror_landing(con: duckdb.DuckDBPyConnection, landing_dir: Path,
                   actions: list[dict]) -> int:
    """Bring `landing_dir` in line with raw.export_rows / raw.export_files after a load that
    did `actions` (the loader's list); returns the number of row files written."""
    (landing_dir / ROWS_DIR).mkdir(parents=True, exist_ok=True)
    (landing_dir / FILES_DIR).mkdir(parents=True, exist_ok=True)
    reread = {a["source_file"] for a in actions if a["action"] in ("loaded", "refused")}
    landed = [row[0] for row in con.execute(
        "select distinct source_file from raw.export_rows order by 1").fetchall()]
    wanted = {rows_file(landing_dir, name): name for name in landed}
    written = 0
    for path, name in wanted.items():
        if name in reread or not path.exists():
            write_parquet(con, "select * from raw.export_rows where source_file = ?", [name],
                          path)
            written += 1
    for path in (landing_dir / ROWS_DIR).iterdir():
        if path not in wanted:
            path.unlink()
    write_parquet(con, "select * from raw.export_files", [],
                  landing_dir / FILES_DIR / "export_files.parquet")
    return written
